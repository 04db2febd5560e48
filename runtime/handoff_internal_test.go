package runtime

import "testing"

// TestAloneAllocates checks that the detector context of a finalizer or a
// cleanup costs one allocation, its thread. The runtime runs finalizers
// and cleanups in batches after GC cycles, which can fall inside a
// program's testing.AllocsPerRun, and it counts every allocation of the
// process: each context cost six before (a closure, the creator's text
// and a vector clock of every slot), and fasthttp's
// TestRequestHeaderFoldedRawHeadersAllocations failed under racegen in
// about one whole-suite run in eight.
func TestAloneAllocates(t *testing.T) {
	setSampling(t, true)
	for _, cleanup := range []bool{false, true} {
		inGoroutine(func() {
			a := enterAlone(cleanup) // the first keeps its clock and text for the next
			a.leave()
			n := testing.AllocsPerRun(100, func() {
				a := enterAlone(cleanup)
				a.leave()
			})
			if n > 1 {
				t.Errorf("cleanup=%v: %v allocations per context, want 1", cleanup, n)
			}
		})
	}
}

// TestAloneClockReuse checks that a context that reuses the vector clock
// of the one before it (spareAloneClock) starts from its own join of
// every slot's clock: a cleanup is not ordered after an earlier cleanup,
// a finalizer is.
func TestAloneClockReuse(t *testing.T) {
	setSampling(t, true)
	tests := []struct {
		name     string
		cleanup  bool
		wantRace bool
	}{
		{"cleanup after cleanup", true, true},
		{"finalizer after cleanup", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := heapObject()
			before := Races()
			inGoroutine(func() {
				a := enterAlone(true)
				Write(x, 8, newSite())
				a.leave()
				b := enterAlone(tt.cleanup)
				if b.t.vc == nil || spareAloneClock.Load() != nil {
					t.Errorf("the second context did not take the first one's clock")
				}
				Read(x, 8, newSite())
				b.leave()
			})
			if got := Races() > before; got != tt.wantRace {
				t.Errorf("race reported = %v, want %v", got, tt.wantRace)
			}
		})
	}
}
