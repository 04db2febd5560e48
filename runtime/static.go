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
// report a happens-before race (Theorem 1). See docs/static.md.

// staticSync is set in static and collide builds: synchronization wrappers
// then only tick the scalar clock, and keep no vector clocks and no state
// per synchronization object.
const staticSync = buildMode != "dynamic"

// collideBuild selects DataCollider: a sampled access waits while its
// watchpoint is armed.
const collideBuild = buildMode == "collide"

// onSync is CRSampler's onSync: every synchronization operation of t ticks
// its scalar clock. Only t writes t.sc. Watchpoints that t armed learn of
// the tick here, with the time it happened, so that a second access
// observed later (by the hardware, asynchronously) can still be placed
// before or after it.
func (t *thread) onSync() {
	t.sc++
	if watchArmed.Load() != 0 {
		clockMoved(t)
	}
}

// staticFork is GoFork in static builds: the parent ticks its clock and
// the child gets a thread, without a slot or a vector clock, that carries
// its identity and creation stack for reports.
//
//go:noinline
func staticFork(t *thread) Goroutine {
	t.onSync()
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
