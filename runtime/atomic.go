package runtime

import "unsafe"

//go:generate go run ./internal/genatomic

// The sync/atomic wrappers in atomic_gen.go model the memory model's rule
// that atomic operations behave like sequentially consistent ones: a load
// is an acquire of the variable, a store a release, and a read-modify-write
// both. A release happens before the operation and an acquire after it, so
// that a load that observes a store is always ordered after it.

const (
	atomicLoad = iota
	atomicStore
	atomicRMW
)

// atomicPre is called before an atomic operation on the size bytes at
// addr, when syncHot: it records the operation as an atomic access and,
// for stores and read-modify-writes, releases. The generated wrappers
// test syncHot themselves, so that while the gate is closed an atomic
// operation makes no call into the detector before it, and for
// read-modify-writes only the inlined test of atomicPost after it. Loads
// other than atomic.Value's use atomicLoaded instead.
//
//go:noinline
func atomicPre(p unsafe.Pointer, size uintptr, kind int, site uint64) syncRef {
	if staticSync {
		onSync()
		return syncRef{}
	}
	o := opAtomic
	if kind != atomicLoad {
		o |= opWrite
	}
	t := syncer()
	syncAccess(t, p, size, site, o)
	sv := lookupSync(t, p)
	if kind != atomicLoad {
		sv.releaseAtomic(t)
	}
	return syncRef{p, sv, t}
}

// atomicStored is atomicPre for a store. Three arguments keep the
// generated store wrappers within the inliner's budget, where
// atomicPre's four would not: with the gate closed a store is then the
// store, a load of the gate and a branch.
//
//go:noinline
func atomicStored(p unsafe.Pointer, size uintptr, site uint64) {
	atomicPre(p, size, atomicStore, site)
}

// atomicLoaded4 and atomicLoaded8 are atomicLoaded for loads of 4 and 8
// bytes. Two arguments keep the generated load wrappers within the
// inliner's budget, where atomicLoaded's three would not.
//
//go:noinline
func atomicLoaded4(p unsafe.Pointer, site uint64) { atomicLoaded(p, 4, site, opAtomic) }

//go:noinline
func atomicLoaded8(p unsafe.Pointer, site uint64) { atomicLoaded(p, 8, site, opAtomic) }

// atomicLoaded is called after an atomic load of the size bytes at addr,
// when syncHot: it records the load as an access of kind o (opAtomic, or
// opAtomic|opWrite for a failed compare-and-swap, see atomicCASFailed)
// and acquires. Nothing is needed before a load, and the gate is tested
// after it, so an acquire made while the gate is open is recorded even if
// the gate opened during the load (see syncRef.object). The wrapper is the
// load, that test and the call, and it inlines into the caller.
func atomicLoaded(p unsafe.Pointer, size uintptr, site uint64, o op) {
	if staticSync {
		onSync()
		return
	}
	t := syncer()
	syncAccess(t, p, size, site, o)
	if t != nil {
		lookupSync(t, p).acquire(t)
	}
}

// atomicCASFailed is called, when recording, for a compare-and-swap
// whose atomic load of the size bytes at addr found a value other than
// the one to compare with: the wrapper returns false without trying the
// swap, which is a legal outcome, the operation taking effect at that
// load. It records the operation as an atomic write, as go build -race
// does whatever a compare-and-swap's outcome, and acquires, as a failed
// one does there; it does not release. Releasing before every attempt,
// as the wrappers must before a swap that may succeed, would order the
// spinning goroutine before every later acquirer, which hides races, and
// would make each turn of a spin loop merge and tick a vector clock: in
// ants's spin lock, with thousands of goroutines, that was most of the
// suite's time.
//
//go:noinline
func atomicCASFailed(p unsafe.Pointer, size uintptr, site uint64) {
	atomicLoaded(p, size, site, opAtomic|opWrite)
}

// atomicPost is called after a load or read-modify-write, which
// acquire; op.p is set even if atomicPre was not called. The gate is
// consulted again, since it may have opened between the two halves, and
// an acquire made while it is open must be recorded. (Stores have no
// second half: atomicPre ticked the clock.)
func atomicPost(op syncRef) {
	if recording() {
		atomicAcquire(op)
	}
}

//go:noinline
func atomicAcquire(op syncRef) {
	if staticSync {
		return // atomicPre made the operation's onSync
	}
	t := op.syncer()
	op.object(t).acquire(t)
}
