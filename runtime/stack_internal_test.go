package runtime

import (
	"testing"
	"time"
	"unsafe"
)

// TestStackMovesDuringAccess checks that an access to the goroutine's own
// stack leaves no history even when the stack grows, and so moves, while
// the hook runs (stack.go). The hooks used to carry the address as a
// uintptr from their first frame, which a stack move does not adjust, so
// the test against the stack's bounds, made frames later, compared the
// old address with the new stack: every access during which the stack
// moved left history in freed memory (fasthttp's suite under racegen: a
// read of a pooled copy buffer reported against a write of a URI at the
// same address, no GC cycle between them).
func TestStackMovesDuringAccess(t *testing.T) {
	setSampling(t, true)
	s := stackProbe{
		left: func(a uintptr) bool { return shadow.hasHistory(a, 8) },
	}
	s.run(t)
}

// TestStackMovesDuringSample is TestStackMovesDuringAccess for the
// sampled accesses of static and collide builds, which arm watchpoints:
// none may be left on the stack a goroutine had before the hook grew it.
func TestStackMovesDuringSample(t *testing.T) {
	for _, e := range engines(t) {
		t.Run(e.String(), func(t *testing.T) {
			useEngine(t, e, time.Minute)
			s := stackProbe{sample: true, left: watched}
			s.run(t)
		})
	}
}

// watched reports whether a watchpoint is armed on the byte at a.
func watched(a uintptr) bool {
	for i := range watchSlots {
		if r := watchSlots[i].rec.Load(); r != nil && r.lo <= a && a < r.hi {
			return true
		}
	}
	return false
}

// A stackProbe writes a variable of each frame of a recursion through a
// hook, W or, with sample, SW, as instrumented code does, and counts the
// calls during which the goroutine's stack moved, and those after which
// left finds something recorded at the variable's old or current address.
// The hooks are called directly: a call through a function value would
// make the variable escape to the heap.
type stackProbe struct {
	sample bool
	left   func(a uintptr) bool

	moved, atOld, atCurrent int
}

func (s *stackProbe) run(t *testing.T) {
	t.Helper()
	for range 16 {
		inGoroutine(func() { s.deep(2000) })
	}
	if s.moved == 0 {
		t.Fatal("no stack move while a hook ran: the test exercised nothing")
	}
	if s.atOld != 0 {
		t.Errorf("%d of %d accesses to a stack that moved during the hook left a record at the old address",
			s.atOld, s.moved)
	}
	if s.atCurrent != 0 {
		t.Errorf("%d accesses left a record on the goroutine's own stack", s.atCurrent)
	}
}

//go:noinline
func (s *stackProbe) deep(n int) {
	var x [2]uint64
	before := uintptr(unsafe.Pointer(&x[0]))
	if s.sample {
		SW(&x[0], newSite())
	} else {
		W(&x[0], newSite(), nil)
	}
	after := uintptr(unsafe.Pointer(&x[0]))
	if before != after {
		s.moved++
		if s.left(before) {
			s.atOld++
		}
	}
	if s.left(after) {
		s.atCurrent++
	}
	if n > 0 {
		s.deep(n - 1)
	}
}

// TestOnOwnStack: sample's early test tells the running goroutine's stack
// from the heap.
func TestOnOwnStack(t *testing.T) {
	if !haveGetg {
		t.Skip("no getg: onOwnStack is always false")
	}
	var local [8]byte
	if !onOwnStack(unsafe.Pointer(&local)) {
		t.Error("a local array is not on its goroutine's stack")
	}
	if onOwnStack(unsafe.Pointer(newWord())) {
		t.Error("a heap word is on the goroutine's stack")
	}
}
