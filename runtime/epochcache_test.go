package runtime

import (
	"sync"
	"testing"
)

func TestEpochCache(t *testing.T) {
	const a, b = 0x1000, 0x1008
	e1, e2 := mkEpoch(1, 5), mkEpoch(1, 6)
	tests := []struct {
		name   string
		a      uintptr
		e      epoch
		mask   uint8
		write  bool
		cached bool
	}{
		{"same bytes read again", a, e1, 0x0f, false, true},
		{"fewer bytes read", a, e1, 0x03, false, true},
		{"other bytes read", a, e1, 0xf0, false, false},
		{"more bytes read", a, e1, 0xff, false, false},
		{"write after read only", a, e1, 0x0f, true, false},
		{"later epoch", a, e2, 0x0f, false, false},
		{"other granule", b, e1, 0x0f, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c epochCache
			c.note(a, e1, 0x0f, false)
			if got := c.covered(tt.a, tt.e, tt.mask, tt.write); got != tt.cached {
				t.Errorf("covered = %v, want %v", got, tt.cached)
			}
		})
	}
	var c epochCache
	c.note(a, e1, 0xff, true)
	if !c.covered(a, e1, 0x01, false) || !c.covered(a, e1, 0xff, true) {
		t.Errorf("a write does not cover later reads and writes of its bytes")
	}
}

// TestEpochCacheRelease: an access after a release is checked again, not
// taken for the one before it.
func TestEpochCacheRelease(t *testing.T) {
	var mu sync.Mutex
	x := heapWord()
	first, ordered, unordered := newSite(), newSite(), newSite()
	before := Races()
	Write(x, 8, first)
	Lock(&mu)
	Unlock(&mu) // a new epoch
	inGoroutine(func() {
		Lock(&mu)
		Write(x, 8, ordered) // ordered after the first write
		Unlock(&mu)
	})
	Write(x, 8, unordered) // not ordered after the goroutine's write
	if Races() == before {
		t.Errorf("race between a write after a release and another goroutine's write not reported")
	}
}
