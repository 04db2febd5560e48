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

func atomicPre(addr uintptr, kind int) *syncVar {
	t := current()
	sv := lookupSync(t, addr)
	if kind != atomicLoad {
		sv.releaseMerge(t)
	}
	return sv
}

func atomicPost(sv *syncVar, kind int) {
	if kind != atomicStore {
		sv.acquire(current())
	}
}
