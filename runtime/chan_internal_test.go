package runtime

import (
	"testing"
	"unsafe"
)

// TestChanSecondHalfThread checks which goroutine state a channel
// operation's second half records with: the first half's while the gate
// is open, syncer's when the first half recorded nothing, and none once
// the gate has closed, as syncer would say.
func TestChanSecondHalfThread(t *testing.T) {
	ch := make(chan int, 1)
	p := unsafe.Pointer(&ch)
	first := ChanPreSend(chanPtr(p), 4001, nil)
	if first.ref.t == nil || first.ref.t != current() {
		t.Fatalf("first half with the gate open kept state %p, want the goroutine's %p", first.ref.t, current())
	}
	if got := first.ref.syncer(); got != first.ref.t {
		t.Errorf("second half with the gate open: state %p, want the first half's %p", got, first.ref.t)
	}
	empty := Chan{ref: syncRef{p: chanPtr(p)}}
	if got := empty.ref.syncer(); got != current() {
		t.Errorf("second half after a first half that recorded nothing: state %p, want syncer's %p", got, current())
	}
	closeGate(t)
	if got := first.ref.syncer(); got != nil {
		t.Errorf("second half after the gate closed: state %p, want none", got)
	}
}
