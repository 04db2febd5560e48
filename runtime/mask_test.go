package runtime

import (
	"testing"
	"unsafe"
)

// TestNeighbourWrites checks that writes by different goroutines to
// different bytes of one granule are all remembered: two int32 variables
// the allocator put side by side must each keep their own last write.
func TestNeighbourWrites(t *testing.T) {
	tests := []struct {
		name     string
		read     uintptr // offset of the final read by the test goroutine
		readSize uintptr
		wantRace bool
	}{
		{"read of the first writer's bytes", 0, 4, true},
		{"read of the second writer's bytes", 4, 4, true},
		{"read of both", 0, 8, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := heapObject()
			site0, site4, siteRead := newSite(), newSite(), newSite()
			before := Races()
			inGoroutine(func() { Write(a, 4, site0) })
			inGoroutine(func() { Write(unsafe.Add(a, 4), 4, site4) })
			Read(unsafe.Add(a, tt.read), tt.readSize, siteRead)
			if got := Races() > before; got != tt.wantRace {
				t.Errorf("race reported = %v, want %v", got, tt.wantRace)
			}
		})
	}
}

// TestNeighbourReads checks that a read of other bytes does not replace an
// earlier read it is ordered after: the earlier read's bytes must still
// race with a later unordered write.
func TestNeighbourReads(t *testing.T) {
	a := heapObject()
	write, read0, read4 := newSite(), newSite(), newSite()
	before := Races()
	// The test goroutine reads bytes 0-3, then a goroutine it forks
	// (ordered after that read) reads bytes 4-7; a goroutine forked
	// earlier, unordered with both, then writes bytes 0-3.
	writer := forkWaiting(func() { Write(a, 4, write) })
	Read(a, 4, read0)
	inGoroutine(func() { Read(unsafe.Add(a, 4), 4, read4) })
	writer()
	if Races() == before {
		t.Errorf("write racing with a read of its bytes not reported after a read of other bytes")
	}
}

// TestOneGranuleMask checks the short form against granuleMask for every
// offset and size of an access within one granule.
func TestOneGranuleMask(t *testing.T) {
	const g = 0x1000
	for off := uintptr(0); off < 8; off++ {
		for n := uintptr(0); off+n <= 8; n++ {
			a := g + off
			if got, want := oneGranuleMask(a, n), granuleMask(g, a, a+n); got != want {
				t.Errorf("oneGranuleMask(g+%d, %d) = %08b, want %08b", off, n, got, want)
			}
		}
	}
}
