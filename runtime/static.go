package runtime

import "unsafe"

// Static sampling (racegen -mode=static and -mode=collide) follows
// CRSampler (Algorithm 3) and DataCollider (Algorithm 2). The instrumenter
// picks a fraction of the static access sites at build time and gives only
// those a hook, SR or SW, which arms a watchpoint on the accessed bytes;
// a conflicting access by another goroutine while the watchpoint is armed
// is the second access of a race. Synchronization only ticks the calling
// goroutine's scalar clock (CRSampler's onSync): a second access is
// reported only while the first goroutine's clock still has the value it
// had at the first access (a clock race, Definition 1), which makes every
// report a happens-before race (Theorem 1). The clock itself is never
// kept: only its first tick after a watchpoint's first access matters,
// and that tick is stamped on the watchpoint (onSync). See
// docs/static.md.

// staticSync is set in static and collide builds: synchronization wrappers
// then only tick the scalar clock, and keep no vector clocks and no state
// per synchronization object.
const staticSync = buildMode != "dynamic"

// collideBuild selects DataCollider: a sampled access waits while its
// watchpoint is armed.
const collideBuild = buildMode == "collide"

// onSync is CRSampler's onSync, made by every synchronization operation
// while the gate is open (syncer, forker, and the atomic wrappers of
// static builds): the calling goroutine's scalar clock ticks. The tick
// matters only to the watchpoints the goroutine armed (their clock
// condition), and only the first after each one's first access: onSync
// stamps them with the time of it (changedAt), so that a second access
// observed later (by the hardware, asynchronously) can still be placed
// before or after it, and the watchpoint, which can report nothing more,
// is spent (spend).
//
// The owner is found by its g, compared with each armed watchpoint's,
// rather than by the goroutine's state, which would cost a lookup
// (current) at every synchronization operation while anything is armed:
// 17 million of them in a run of fasthttp's two make bench benchmarks
// built at -seed=1. A goroutine that runs on a g after the owner has
// ended stamps the owner's watchpoints too, which can only end a
// watchpoint's chance early, as the hardware check that takes an access
// on the owner's g for the owner's does. Without getg (other
// architectures) the owner is found by its state.
func onSync() {
	if m := watchArmed.Load(); m != 0 {
		stampOwned(m)
	}
}

// stampOwned is the rest of onSync, for the slots armed in the mask m.
func stampOwned(m uint32) {
	gp := getg()
	var t *thread
	if gp == 0 {
		if t = current(); t == nil {
			return
		}
	}
	var now int64
	for i := 0; m != 0; i, m = i+1, m>>1 {
		if m&1 == 0 {
			continue
		}
		r := watchSlots[i].rec.Load()
		if r == nil || r.changedAt.Load() != 0 || r.g != gp || gp == 0 && r.owner != t {
			continue
		}
		if now == 0 {
			now = nanotime()
		}
		r.changedAt.Store(now)
		spend(i, r)
	}
}

// staticFork is GoFork in static builds, once forker has made the
// parent's onSync: the child gets a thread, without a slot or a vector
// clock, that carries its identity and creation stack for reports.
//
//go:noinline
func staticFork(t *thread) Goroutine {
	u := &thread{parent: t.goid}
	var pcs [creationDepth]uintptr
	n := creators(pcs[:])
	u.created = append([]uintptr(nil), pcs[:n]...)
	return Goroutine{t: u}
}

// SR is a read of *p at a statically sampled site: it arms a watchpoint
// that catches writes of *p by other goroutines, and returns p. In a
// collide build it waits, up to the time limit, for such a write.
func SR[T any](p *T, site uint64) *T {
	if !dropsAtOnce() {
		sampleRead(unsafe.Pointer(p), unsafe.Sizeof(*p), site)
	}
	return p
}

// SW is a write of *p at a statically sampled site: it arms a watchpoint
// that catches reads and writes of *p by other goroutines, and returns p.
func SW[T any](p *T, site uint64) *T {
	if !dropsAtOnce() {
		sampleWrite(unsafe.Pointer(p), unsafe.Sizeof(*p), site)
	}
	return p
}

// dropsAtOnce reports, for SR and SW to test inline, whether a sample is
// dropped whatever its address and site: on the hardware engine, every
// slot watches or rests (hwFull; cannotArm tests the rest). A site that
// a build sampled in an inner loop (a byte of hashpool's hash, sampled
// at -seed=3) runs its hook at each iteration, and nearly every one
// finds the four slots taken: as a call into sample, with its count of
// drops, that made the loop 7.5 times slower. The software engine checks
// a sample as a second access too, so it always calls sample.
func dropsAtOnce() bool {
	return hwFull.Load()
}

// CR is a read of *p at a site that was not sampled, emitted only in
// builds for software watchpoints: it checks the read against the armed
// watchpoints and returns p. When none is armed it costs a load and a
// branch.
func CR[T any](p *T, site uint64) *T {
	if watchArmed.Load() != 0 {
		softAccess(unsafe.Pointer(p), unsafe.Sizeof(*p), site, false)
	}
	return p
}

// CW is a write of *p at a site that was not sampled, like CR.
func CW[T any](p *T, site uint64) *T {
	if watchArmed.Load() != 0 {
		softAccess(unsafe.Pointer(p), unsafe.Sizeof(*p), site, true)
	}
	return p
}
