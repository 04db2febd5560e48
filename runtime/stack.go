package runtime

import "unsafe"

// A goroutine's own stack holds only data no other goroutine can reach,
// and the Go runtime moves it when it grows (LARD's fourth rule): the
// detector records no access to it, arms no watchpoint on it and keeps no
// synchronization clock for an object in it.
//
// Every hook carries the address it was given as an unsafe.Pointer down
// to that test, and turns it into a uintptr only there. A stack that
// grows while a hook runs is copied to new memory, and the runtime
// adjusts the pointers into it, but not a uintptr, which is left pointing
// into the old stack. The old stack is freed at once and, while no GC
// cycle runs, its pages go back to the heap, where the next objects are
// allocated with no cycle completing: history left at the old address
// would be taken for an earlier access of whatever object is allocated
// there, a false report that the GC generations (heap.go) cannot stop.
// TestStackMovesDuringAccess makes stacks move inside hooks.

// address returns p's address, and whether it lies in the stack of t's
// goroutine. p must have been a pointer since the hook was called.
//
// It is nosplit, as are the functions it calls once inlined, so that the
// stack cannot move between reading its bounds and converting p.
//
//go:nosplit
func (t *thread) address(p unsafe.Pointer) (addr uintptr, onStack bool) {
	if t.g == 0 {
		return uintptr(p), false // no g to read the bounds from (getg_other.go)
	}
	addr = uintptr(p)
	return addr, inStack(t.g, addr)
}

// onOwnStack reports whether p lies on the running goroutine's stack,
// without looking the goroutine up; false without getg. It is nosplit,
// like address, and for the same reason.
//
//go:nosplit
func onOwnStack(p unsafe.Pointer) bool {
	gp := getg()
	return gp != 0 && inStack(gp, uintptr(p))
}
