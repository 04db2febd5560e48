package runtime

import "sync/atomic"

// A probeTable is an open-addressing hash table from nonzero uintptr keys
// to pointers, as the goroutine table (g address to thread) and the sync
// table (object address to syncVar) both keep one: readers probe it
// without a lock, and writers fill empty slots, or replace the whole
// table, under the owner's lock. Its length is a power of two.
type probeTable[V any] struct {
	mask uintptr
	keys []atomic.Uintptr
	vals []atomic.Pointer[V]
}

// clear empties t, a slot at a time: a reader probing it meanwhile sees
// each slot either as it was or empty.
func (t *probeTable[V]) clear() {
	for i := range t.keys {
		t.keys[i].Store(0)
		t.vals[i].Store(nil)
	}
}

func newProbeTable[V any](size int) *probeTable[V] {
	return &probeTable[V]{
		mask: uintptr(size - 1),
		keys: make([]atomic.Uintptr, size),
		vals: make([]atomic.Pointer[V], size),
	}
}
