//go:build linux

package runtime

import (
	"testing"
	"unsafe"
)

var (
	goObjectGlobal [64]byte
	goObjectSink   any
)

// TestGoObjectOffStack checks the page cache in front of goObject: a Go
// object's page is remembered, and memory the Go heap does not manage is
// never taken for Go memory, however often it is asked about.
func TestGoObjectOffStack(t *testing.T) {
	if !haveGetg {
		t.Skip("no getg: every object is probed")
	}
	heap := make([]uint64, 4) // escapes through the slice header below
	goObjectSink = heap
	type probe struct {
		name string
		p    unsafe.Pointer
		want bool
	}
	tests := []probe{
		{"heap object", unsafe.Pointer(&heap[1]), true},
		{"global", unsafe.Pointer(&goObjectGlobal[3]), true},
	}
	if mem, err := sysMmap(-1, 1<<16, protRead|protWrite, mapPrivate|mapAnon); err == nil {
		tests = append(tests, probe{"mapped memory", unsafe.Pointer(&mem[64]), false})
	}
	for _, tt := range tests {
		for i := range 3 { // the first probes, the others may find the page
			if got := goObjectOffStack(tt.p); got != tt.want {
				t.Errorf("%s, call %d: goObjectOffStack = %v, want %v", tt.name, i, got, tt.want)
			}
		}
		pg := uintptr(tt.p) >> goPageShift
		cached := goPageSlot(pg).Load() == pg
		if cached != tt.want {
			t.Errorf("%s: page cached %v, want %v", tt.name, cached, tt.want)
		}
	}
}
