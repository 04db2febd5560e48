package runtime

import (
	"sync/atomic"
	"unsafe"
	"weak"
)

// A syncVar tells the object it was made for from a new one at the same
// address by a weak pointer (syncVar.live), and every synchronization
// operation asks. weak.Pointer.Value answers exactly whoever asks, but
// at a price: it finds the object's span and makes sure the span is swept
// before it hands out a strong pointer, about a hundred instructions,
// a tenth of bench/ops's LockUnlock at rate 1 and as much of a channel
// send and receive (callgrind, 2026-12-03).
//
// A lookup does not need a strong pointer: its caller holds one, to the
// object now at the address. For that caller the weak pointer's handle
// word alone decides, because of when the Go runtime clears it. The
// handle holds the object's address until the sweep that frees the
// object, which clears it before the object's slot goes back to the
// allocator (freeSpecial, from mspan.sweep). A new object at the same
// address is allocated after that sweep, and the caller's pointer to it
// came after the allocation. So if the handle still holds an address,
// the slot has not been handed out again, and the live object the caller
// points at is the one the syncVar was made for. A handle that reads
// zero means that object died (or was resurrected by a finalizer, which
// also clears weak pointers, and Value then says the same).
//
// weakHandleSet reads the handle through weak.Pointer's only field, the
// pointer to it (weak.Make returns Pointer{u: handle}). The assertion
// below breaks the build if the type's size changes; TestWeakHandleSet
// checks the meaning against Value on the toolchain in use.

// weakLayout is weak.Pointer's layout: the pointer to the handle word,
// its one field of nonzero size (the other is a zero-length array that
// only names the type).
type weakLayout struct {
	u *atomic.Uintptr
}

// A weak.Pointer of another size than weakLayout makes this array's
// length negative, and the package fails to compile.
var _ [unsafe.Sizeof(weakLayout{}) - unsafe.Sizeof(weak.Pointer[byte]{})]struct{}
var _ [unsafe.Sizeof(weak.Pointer[byte]{}) - unsafe.Sizeof(weakLayout{})]struct{}

// weakHandleSet reports whether w's object has not yet been freed. It is
// exact only for a caller that holds a pointer to the object now at w's
// address (see above); for anyone else an object that died since the
// last sweep still counts as alive.
func weakHandleSet(w *weak.Pointer[byte]) bool {
	h := (*weakLayout)(unsafe.Pointer(w)).u
	return h != nil && h.Load() != 0
}
