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
	// growing is odd while grow copies the table, and counts grows, so
	// that a store without the lock can tell whether it raced with one.
	growing atomic.Uint64
}

type gslots = probeTable[thread]

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

// store registers th (which may be nil) for g. The runtime recycles g
// structs, so once a program has warmed up almost every store finds its
// key already in the table and only replaces the value, without the
// table's lock: stores happen at every goroutine start and end, and that
// lock was shared by all of them. A new key takes the lock. So does a
// store that may have been lost to a concurrent grow, which copies the
// table under the lock and might have read the old value.
func (t *gtable) store(g uintptr, th *thread) {
	if gen := t.growing.Load(); gen&1 == 0 {
		if s := t.tab.Load(); s != nil {
			for i := ghash(g) & s.mask; ; i = (i + 1) & s.mask {
				k := s.keys[i].Load()
				if k == g {
					s.vals[i].Store(th)
					if t.growing.Load() == gen {
						return // no grow began before the store
					}
					break // a grow may have copied the old value
				}
				if k == 0 {
					break
				}
			}
		}
	}
	t.storeLocked(g, th)
}

// storeLocked is store under the table's lock.
func (t *gtable) storeLocked(g uintptr, th *thread) {
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

// gtabGrowPause, when set by a test, runs between a grow's copy and its
// publication, to widen the window in which a store can race with it.
var gtabGrowPause func()

// grow returns a table twice the size of s holding s's entries and
// publishes it. Readers of the old table still find every key: entries are
// copied, never moved out, and inserts hold the lock; a store that only
// replaces a value checks growing (see store).
func (t *gtable) grow(s *gslots) *gslots {
	size := 1024
	if s != nil {
		size = 2 * len(s.keys)
	}
	ns := newProbeTable[thread](size)
	t.growing.Add(1)
	defer t.growing.Add(1)
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
	if gtabGrowPause != nil {
		gtabGrowPause()
	}
	t.tab.Store(ns)
	return ns
}
