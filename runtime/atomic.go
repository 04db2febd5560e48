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
func atomicPre(addr, size uintptr, kind int, site uint64) *syncVar {
	if staticSync {
		current().onSync()
		return nil
	}
	o := opAtomic
	if kind != atomicLoad {
		o |= opWrite
	}
	access(addr, size, site, o)
	t := current()
	sv := lookupSync(t, addr)
	if kind != atomicLoad {
		sv.releaseMerge(t)
	}
	return sv
}

// atomicPost is called after the operation: loads and read-modify-writes
// acquire.
func atomicPost(sv *syncVar, kind int) {
	if staticSync {
		return // atomicPre ticked the clock
	}
	if kind != atomicStore {
		sv.acquire(current())
	}
}
