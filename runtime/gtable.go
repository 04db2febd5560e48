package runtime

import (
	"sync"
	"sync/atomic"
)

// A gtable maps the address of a runtime g struct to the detector state of
// the goroutine running on it. Lookups are lock-free: one hash and, almost
// always, one probe. The Go runtime never frees g structs (it recycles
// them), so keys are never removed and the table is bounded by the peak
// number of goroutines; a recycled g simply has its value replaced.
type gtable struct {
	mu  sync.Mutex // serializes inserts and growth
	tab atomic.Pointer[gslots]
	n   int // keys in tab, under mu
}

type gslots struct {
	mask uintptr
	keys []atomic.Uintptr
	vals []atomic.Pointer[thread]
}

func newGslots(size int) *gslots {
	return &gslots{
		mask: uintptr(size - 1),
		keys: make([]atomic.Uintptr, size),
		vals: make([]atomic.Pointer[thread], size),
	}
}

// ghash spreads g addresses, which are multiples of the g size class.
func ghash(g uintptr) uintptr {
	g ^= g >> 29
	g *= 0xbf58476d1ce4e5b9
	return g ^ g>>32
}

// lookup returns the state registered for g, or nil.
func (t *gtable) lookup(g uintptr) *thread {
	s := t.tab.Load()
	if s == nil {
		return nil
	}
	for i := ghash(g) & s.mask; ; i = (i + 1) & s.mask {
		k := s.keys[i].Load()
		if k == g {
			return s.vals[i].Load()
		}
		if k == 0 {
			return nil
		}
	}
}

// store registers th (which may be nil) for g. Stores take the table's
// lock: they happen once per goroutine start or end, and a lock-free store
// could be lost by a concurrent grow.
func (t *gtable) store(g uintptr, th *thread) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.tab.Load()
	if s == nil || 2*(t.n+1) > len(s.keys) {
		s = t.grow(s)
	}
	for i := ghash(g) & s.mask; ; i = (i + 1) & s.mask {
		k := s.keys[i].Load()
		if k == g {
			s.vals[i].Store(th)
			return
		}
		if k == 0 {
			// Publish the value before the key so that a reader
			// that finds the key also finds its value.
			s.vals[i].Store(th)
			s.keys[i].Store(g)
			t.n++
			return
		}
	}
}

// grow returns a table twice the size of s holding s's entries and
// publishes it. Readers of the old table still find every key: entries are
// copied, never moved out, and stores hold the lock.
func (t *gtable) grow(s *gslots) *gslots {
	size := 1024
	if s != nil {
		size = 2 * len(s.keys)
	}
	ns := newGslots(size)
	if s != nil {
		for i := range s.keys {
			k := s.keys[i].Load()
			if k == 0 {
				continue
			}
			for j := ghash(k) & ns.mask; ; j = (j + 1) & ns.mask {
				if ns.keys[j].Load() == 0 {
					ns.vals[j].Store(s.vals[i].Load())
					ns.keys[j].Store(k)
					break
				}
			}
		}
	}
	t.tab.Store(ns)
	return ns
}
