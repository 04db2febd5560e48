package runtime

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
// addr: it records the operation as an atomic access and, for stores and
// read-modify-writes, releases.
func atomicPre(addr, size uintptr, kind int, site uint64) syncRef {
	if staticSync {
		current().onSync()
		return syncRef{}
	}
	o := opAtomic
	if kind != atomicLoad {
		o |= opWrite
	}
	access(addr, size, site, o)
	t := syncer()
	sv := lookupSync(t, addr)
	if kind != atomicLoad {
		sv.releaseMerge(t)
	}
	return syncRef{addr, sv}
}

// atomicPost is called after the operation: loads and read-modify-writes
// acquire. The gate is consulted again, since it may have opened between
// the two halves, and an acquire made while it is open must be recorded.
func atomicPost(op syncRef, kind int) {
	if staticSync || kind == atomicStore {
		return // atomicPre ticked the clock, or there is nothing to acquire
	}
	t := syncer()
	op.object(t).acquire(t)
}
