package runtime

import "sync/atomic"

// The gate is what makes a program that is not being sampled run at
// nearly its own speed. It is zero when the detector has nothing to do:
// no sampling period is on and no granule has access history. Every hook
// loads it first, and while it is zero an access costs that load and a
// branch, and a synchronization operation or go statement records
// nothing at all: no clock is joined or copied, no object looked up.
//
// Skipping synchronization while the gate is closed loses no race and
// invents none. A race is reported when an access B finds in a granule's
// history an access A that is not ordered before it. The edges that could
// order A before B are made by operations that run after A, and A's
// history exists from A until B finds it, so the gate is open during every
// one of them and each is recorded. An operation skipped while the gate
// was closed ran when no history existed at all: whatever it ordered is
// ordered before every history that exists later. The goroutine clocks
// that skipped operations leave stale can only lack entries, never have
// entries that are too large, and Pacer's rule that a goroutine advances
// its clock when it first sees a new sampling period keeps a stale entry
// from ordering a later sampled access (thread.sampling).
//
// The count is exact at the moments that matter: a shadow page adds one
// before its first cell is inserted and takes it away after its last is
// deleted (the transitions of its atomic cell count, page.insert and
// page.remove), so a zero read from any goroutine means that no cell
// existed at that instant; an access that created one happened
// before its goroutine's next load of the gate, and before any load
// ordered after it by real synchronization.
//
// In static and collide builds there is no shadow, and the gate counts
// the armed watchpoints instead (watch.go): a synchronization operation
// only ticks its goroutine's scalar clock there, and a tick matters only
// to the watchpoints its goroutine armed, which learn of it (onSync). A
// goroutine that synchronizes while no watchpoint is armed has none, and
// one that armed a watchpoint opened the gate before its next operation,
// in its own program order. So with the gate closed a static build's
// synchronization wrappers and go statements make no call into the
// detector either, and cost what they cost at rate 0.
//
// It is a plain int64, read and written only with sync/atomic's
// functions, for the reason syncGate below is: the hooks that instrumented
// code inlines at every access test it (see gateOpen).
var gate int64

// syncGate is the gate for synchronization operations: gate's count, plus
// one while the pacer counts operations (pacer.go), which must then call
// into the detector although no access need. It opens before gate and
// closes after it, so that it is open whenever gate is. It is kept
// rather than derived because syncHot inlines into every wrapper: testing
// gate and the counting flag apart cost 15 more in the inliner's budget
// and put Acquire, Release and their kin over it. It is a plain int64,
// read and written only with sync/atomic's functions, because the
// inliner counts atomic.LoadInt64(&syncGate) cheaper than the Load
// method of an atomic.Int64: the difference keeps the sync/atomic
// wrappers of atomic_gen.go within the budget.
var syncGate int64

// gateInc and gateDec add and remove a reason for the detector to work.
func gateInc() {
	atomic.AddInt64(&syncGate, 1)
	atomic.AddInt64(&gate, 1)
}

func gateDec() {
	atomic.AddInt64(&gate, -1)
	atomic.AddInt64(&syncGate, -1)
}

// gateOpen reports whether the detector has anything to do.
//
// The hooks that instrumented code inlines (R, W and the others of
// hooks.go, Idle) spell its test out, atomic.LoadInt64(&gate) != 0,
// rather than call it. An intrinsic adds nothing to the tables the Go
// runtime keeps for each function, but each inlined call adds a node to
// the caller's inlining tree and changes of file and line to its pc
// tables, at every access the instrumenter hooks. Calling gateOpen, which
// called the Load method of an atomic.Int64, put three levels of inlining
// at each hook where one is left: fasthttp's rate-0 test binary had a
// .gopclntab of 13.2 MiB, and has 10.1 MiB (4.2 MiB uninstrumented), with
// the same 14.1 MiB of code, and the binary went from 44.6 to 40.2 MB.
// The inliner also counts the intrinsic a few points cheaper, which the
// hooks of copy and append, at the edge of its budget, need.
func gateOpen() bool { return atomic.LoadInt64(&gate) != 0 }

// Idle reports whether the detector has nothing to do, so that code may
// run without its hooks: the instrumenter makes two copies of loops that
// only compute, and runs the one without hooks while Idle is true. It
// spells out gateOpen's test (see there).
func Idle() bool { return atomic.LoadInt64(&gate) == 0 }

// switchSampling starts (on) or ends a sampling period.
func switchSampling(on bool) {
	if on {
		samplingPeriod.Add(1)
		if sampling.Swap(1) == 0 {
			gateInc()
		}
		return
	}
	if sampling.Swap(0) != 0 {
		gateDec()
	}
}

// syncer returns the current goroutine's state for a synchronization
// operation, or nil when the operation need not be recorded: the gate is
// closed, or the build is static, where the operation's whole effect is
// onSync's. Every synchronization wrapper starts with it, and the syncVar
// methods do nothing for a nil thread. It makes the operation's onSync in
// every build: the watchpoint engine's tests run in dynamic builds.
func syncer() *thread { return syncerOf(nil) }

// syncerOf is syncer for an operation whose goroutine state, t, its
// caller found already (the second half of a channel operation or of an
// atomic read-modify-write: syncRef.syncer), or nil if it must be looked
// up.
func syncerOf(t *thread) *thread {
	if !gateOpen() {
		if counting() {
			countIdleSync()
		}
		return nil
	}
	onSync()
	if staticSync {
		return nil
	}
	if t == nil {
		t = current()
	}
	return t
}

// syncerIn is syncer for an operation made in an instrumented function
// whose Ctx is c (nil outside one): it takes the goroutine's state from
// c if an access filled it, and leaves it there for the accesses that
// follow, as c.thread would. The lock halves the instrumenter writes out
// (Locked and its kin) take the function's Ctx for it.
func syncerIn(c *Ctx) *thread {
	if c != nil && c.t != nil {
		return syncerOf(c.t)
	}
	t := syncerOf(nil)
	c.keep(t)
	return t
}

// forker returns the state of a goroutine making a go statement, or nil
// when the gate is closed: unlike other synchronization operations, a go
// statement made while the gate is open needs its goroutine's state in a
// static build too, for the child's creation stack (staticFork).
func forker() *thread {
	if !staticSync {
		return syncer()
	}
	if !gateOpen() {
		return nil
	}
	onSync()
	return current()
}

// syncHot reports whether a synchronization operation must call into
// the detector: to be recorded (the gate is open) or only counted for
// the pacer (in a period it measures). It inlines, so that the wrappers
// (Lock, Send, the atomics, ...) test it around the operation they wrap
// and, at rate 0 with the gate closed, make no call at all; their
// recording halves (acquireAt and the like) start with syncer, which
// decides again.
func syncHot() bool { return atomic.LoadInt64(&syncGate) != 0 }

// recording reports whether synchronization must be recorded: the gate
// is open. The two-part wrappers test it, and count a closed first half
// with idlePair.
func recording() bool { return gateOpen() }

// idlePair counts, for the pacer, both halves of a two-part operation
// whose first half found the gate closed.
func idlePair() {
	if counting() {
		countIdlePair()
	}
}
