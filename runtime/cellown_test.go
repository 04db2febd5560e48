package runtime

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// TestCellOwnStep checks settles' own step against the lock's rules (the same-epoch
// test; checkWrite, clearReads and recordWrite; checkRead and recordRead)
// on every cell without an extension that the epochs, masks, sites and
// atomicity below make, for every access: where settles records an
// access, the rules find no race, and every later access, by a goroutine
// that knows any part of the two goroutines' histories, finds the same
// race, or none, in the cell settles leaves as in the one the rules leave.
func TestCellOwnStep(t *testing.T) {
	thr := stepThread()
	e := thr.epoch()
	epochs := []epoch{
		0,
		e,             // this epoch: ownSteps asks before the rule's same-epoch test
		mkEpoch(1, 3), // thr's own, earlier
		mkEpoch(1, 4), // thr's own, earlier still the last
		mkEpoch(2, 4), // another thread's, ordered before
		mkEpoch(2, 7), // another thread's, concurrent
	}
	masks := []uint8{0x0f, 0xf0, 0xff}
	// Later goroutines, each knowing thr up to one clock and thread 2
	// up to another.
	var later []*thread
	for _, c1 := range []uint64{0, 3, 4, 5} {
		for _, c2 := range []uint64{0, 4, 7} {
			u := &thread{tid: 3, vc: &vclock{}}
			u.ep.Store(uint64(mkEpoch(3, 9)))
			u.vc.set(1, c1)
			u.vc.set(2, c2)
			later = append(later, u)
		}
	}
	recorded, checked := 0, 0
	for _, c0 := range stepCells(epochs, masks, []cellFlags{0, cellWAtomic, cellRAtomic, cellGlobal}) {
		for _, mask := range masks {
			for _, o := range []op{opRead, opWrite, opRead | opAtomic, opWrite | opAtomic} {
				for _, site := range []uint64{stepWSite, stepRSite, 99} {
					checked++
					if checkOwnStep(t, thr, later, c0, mask, site, o) {
						recorded++
					}
				}
			}
		}
	}
	if recorded < 100 || recorded == checked {
		t.Fatalf("settles recorded %d of %d accesses: the combinations above should give more, and not all", recorded, checked)
	}
}

// checkOwnStep gives settles thr's sampled access o of the bytes mask from site to
// a copy of c0, and reports whether it recorded it. If it did not, the
// copy must be unchanged; if it did, the lock's rules must find no race,
// and the goroutines later must find the same races in the copy as in the
// cell the rules leave (compareLater).
func checkOwnStep(t *testing.T, thr *thread, later []*thread, c0 cell, mask uint8, site uint64, o op) bool {
	t.Helper()
	e, atomic := thr.epoch(), o&opAtomic != 0
	own := c0
	if !own.settles(thr, e, mask, site, o, 3, true) {
		if own != c0 {
			t.Errorf("settles declined %v of %#02x at %d to %s but changed it to %s", o, mask, site, cellState(&c0), cellState(&own))
		}
		return false
	}
	general := c0
	var cf conflict
	var found bool
	switch {
	case c0.repeats(c0.w, c0.r, e, mask, o, true):
		// Same epoch: the rule changes nothing.
	case o&opWrite != 0:
		found = general.checkWrite(thr, mask, atomic, &cf)
		general.clearReads(mask)
		general.recordWrite(e, mask, site, atomic)
	default:
		found = general.checkRead(thr, mask, atomic, &cf)
		general.recordRead(thr, e, mask, site, atomic)
	}
	what := fmt.Sprintf("%v of %#02x at %d to %s", o, mask, site, cellState(&c0))
	if found {
		t.Errorf("%s: settles recorded it, but it races with %+v", what, cf)
	}
	compareLater(t, what, later, &general, &own)
	general.drop()
	own.drop()
	return true
}

// compareLater reports a later access, by any of the goroutines later, that
// finds a different race, or none, in the cell own than in general.
func compareLater(t *testing.T, what string, later []*thread, general, own *cell) {
	t.Helper()
	for _, u := range later {
		for _, mask := range []uint8{0x0f, 0xf0, 0xff} {
			for _, atomic := range []bool{false, true} {
				var cfg, cfo conflict
				fg, fo := general.checkWrite(u, mask, atomic, &cfg), own.checkWrite(u, mask, atomic, &cfo)
				if fg != fo || fg && cfg != cfo {
					t.Errorf("%s: a later write of %#02x (atomic %v) by a goroutine knowing %v finds %v %+v after the lock's rules, %v %+v after ownStep\nrules leave   %s\nownStep leaves %s",
						what, mask, atomic, u.vc.c, fg, cfg, fo, cfo, cellState(general), cellState(own))
				}
				fg, fo = general.checkRead(u, mask, atomic, &cfg), own.checkRead(u, mask, atomic, &cfo)
				if fg != fo || fg && cfg != cfo {
					t.Errorf("%s: a later read of %#02x (atomic %v) by a goroutine knowing %v finds %v %+v after the lock's rules, %v %+v after ownStep",
						what, mask, atomic, u.vc.c, fg, cfg, fo, cfo)
				}
			}
		}
	}
}

// TestOwnStepConcurrent runs two goroutines that rewrite (and read, or
// not) the same buffer from the same sites, with a release between rounds
// so that each round is a new epoch: each goroutine's rewrites of its own
// history go through ownStep, and its rewrites of the other's must not.
// With the rounds ordered by one mutex no race is reported; with each
// goroutine releasing a mutex of its own, the goroutines are unordered
// and a race is.
func TestOwnStepConcurrent(t *testing.T) {
	for _, ordered := range []bool{true, false} {
		for _, read := range []bool{true, false} {
			t.Run(fmt.Sprintf("ordered=%v/read=%v", ordered, read), func(t *testing.T) {
				var shared sync.Mutex
				buf := new([16]uint64)
				keep = append(keep, buf)
				x := unsafe.Pointer(buf)
				copySite, wordSite, readSite := newSite(), newSite(), newSite()
				work := func() func() {
					mu := new(sync.Mutex)
					if ordered {
						mu = &shared
					}
					return func() {
						for range 2000 {
							Lock(mu)
							WriteRange(x, unsafe.Sizeof(*buf), copySite)
							Write(unsafe.Pointer(&buf[3]), 8, wordSite)
							if read {
								ReadRange(unsafe.Pointer(&buf[8]), 64, readSite)
							}
							Unlock(mu)
						}
					}
				}
				before := Races()
				runA, runB := forkWaiting(work()), forkWaiting(work())
				var wg sync.WaitGroup
				wg.Add(2)
				go func() { defer wg.Done(); runA() }()
				go func() { defer wg.Done(); runB() }()
				wg.Wait()
				got := Races() - before
				if ordered && got != 0 {
					t.Errorf("%d races reported between rounds ordered by a mutex, want none", got)
				}
				if !ordered && got == 0 {
					t.Errorf("no race reported between two goroutines' unordered writes")
				}
			})
		}
	}
}

// holds and ownStep are settles' two tests written apart, as its first
// design had them, each loading what it needs: the specification that
// TestCellSettles holds settles to.

// holds reports whether the cell holds an access at epoch e, of the bytes
// mask at least, that makes an access o of them redundant, on history
// that has not expired by gen (settles' first test).
func (c *cell) holds(e epoch, mask uint8, o op, gen uint32, sample bool) bool {
	w := epoch(atomic.LoadUint64((*uint64)(&c.w)))
	var r epoch
	if o&opWrite == 0 {
		r = epoch(atomic.LoadUint64((*uint64)(&c.r)))
	}
	return c.repeats(w, r, e, mask, o, sample) && c.gen >= gen
}

// ownStep records t's sampled access o of the bytes mask at epoch e from
// site with a swap, and reports whether it did, when the access replaces
// t's own last access of its kind (settles' second test).
func (c *cell) ownStep(t *thread, e epoch, mask uint8, site uint64, o op, gen uint32) bool {
	at := o&opAtomic != 0
	if o&opWrite != 0 {
		w := epoch(atomic.LoadUint64((*uint64)(&c.w)))
		if !t.owns(w) || c.wmask != mask || c.wsite != site || c.watomic() != at || !c.swappable(t, site, gen) {
			return false
		}
		if r := epoch(atomic.LoadUint64((*uint64)(&c.r))); r != 0 && (!t.owns(r) || at && !c.ratomic()) {
			return false
		}
		return atomic.CompareAndSwapUint64((*uint64)(&c.w), uint64(w), uint64(e))
	}
	r := epoch(atomic.LoadUint64((*uint64)(&c.r)))
	if !t.owns(r) || c.rmask != mask || c.rsite != site || c.ratomic() != at || !c.swappable(t, site, gen) {
		return false
	}
	if w := epoch(atomic.LoadUint64((*uint64)(&c.w))); w != 0 && !t.ordered(w) {
		return false
	}
	return atomic.CompareAndSwapUint64((*uint64)(&c.r), uint64(r), uint64(e))
}

// TestCellSettles checks that settles answers as holds followed, in a
// sampling period, by ownStep do, and leaves the cell as they leave it,
// on every cell, access, site, GC count and period of TestCellOwnStep's.
func TestCellSettles(t *testing.T) {
	thr := stepThread()
	e := thr.epoch()
	epochs := []epoch{0, e, mkEpoch(1, 3), mkEpoch(1, 4), mkEpoch(2, 4), mkEpoch(2, 7)}
	masks := []uint8{0x0f, 0xf0, 0xff}
	settled, checked := 0, 0
	for _, c0 := range stepCells(epochs, masks, []cellFlags{0, cellWAtomic, cellRAtomic, cellGlobal}) {
		for _, mask := range masks {
			for _, o := range []op{opRead, opWrite, opRead | opAtomic, opWrite | opAtomic} {
				for _, site := range []uint64{stepWSite, stepRSite, 99} {
					for _, gen := range []uint32{3, 4} { // the cells' own, and a later one
						for _, sample := range []bool{false, true} {
							one, two := c0, c0
							got := one.settles(thr, e, mask, site, o, gen, sample)
							want := two.holds(e, mask, o, gen, sample) || sample && two.ownStep(thr, e, mask, site, o, gen)
							checked++
							if got {
								settled++
							}
							if got != want || one != two {
								t.Errorf("%v of %#02x at %d, gen %d, sample %v, to %s: settles says %v and leaves %s; holds and ownStep say %v and leave %s",
									o, mask, site, gen, sample, cellState(&c0), got, cellState(&one), want, cellState(&two))
							}
						}
					}
				}
			}
		}
	}
	if settled == 0 || settled == checked {
		t.Fatalf("settles settled %d of %d accesses: the combinations above should give some, and not all", settled, checked)
	}
}
