package runtime

import (
	goruntime "runtime"
	"testing"
	"unsafe"
	"weak"
)

// weakObj is big enough to stay out of the tiny allocator, whose blocks
// live as long as any object in them.
type weakObj struct {
	next *weakObj
	_    [56]byte
}

// TestWeakHandleSet checks weakHandleSet against weak.Pointer.Value on
// the toolchain in use: both say alive while the object is reachable,
// both say dead once a collection has freed it, and a weak pointer made
// from nil is never set. It fails if the runtime stops clearing the
// handle word in the sweep that frees the object, or if weak.Pointer's
// field stops pointing at that word.
func TestWeakHandleSet(t *testing.T) {
	if weakHandleSet(new(weak.Pointer[byte])) {
		t.Error("the zero weak.Pointer is set")
	}
	obj := new(weakObj)
	w := weak.Make((*byte)(unsafe.Pointer(obj)))
	goruntime.GC()
	if !weakHandleSet(&w) || w.Value() == nil {
		t.Fatalf("reachable object: weakHandleSet %v, Value %v", weakHandleSet(&w), w.Value())
	}
	goruntime.KeepAlive(obj)
	obj = nil
	for i := 0; i < 10 && w.Value() != nil; i++ {
		goruntime.GC()
	}
	if w.Value() != nil {
		t.Skip("the object stayed reachable through 10 collections")
	}
	if weakHandleSet(&w) {
		t.Error("weakHandleSet says alive after Value said the object was freed")
	}
}
