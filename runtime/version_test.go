package runtime

import (
	"sync"
	"testing"
)

// TestVersionKnows checks the comparisons versions rest on: a version is
// known only within one owner generation of a slot, and only up to the
// version learned.
func TestVersionKnows(t *testing.T) {
	gen1 := uint64(1) << verCountBits
	gen2 := uint64(2) << verCountBits
	th := &thread{tid: 3, ver: gen1 | 10}
	th.learn(5, gen1|7)
	cases := []struct {
		u    uint32
		v    uint64
		want bool
	}{
		{5, gen1 | 7, true},
		{5, gen1 | 6, true},
		{5, gen1 | 8, false},
		{5, gen2 | 1, false}, // a later owner of slot 5
		{5, 0, false},
		{4, gen1 | 1, false},
		{99, gen1 | 1, false},
		{3, gen1 | 10, true}, // t's own earlier versions
		{3, gen1 | 11, false},
		{3, gen2 | 1, false},
	}
	for _, c := range cases {
		if got := th.knows(c.u, c.v); got != c.want {
			t.Errorf("knows(%d, %#x) = %v, want %v", c.u, c.v, got, c.want)
		}
	}
	// A later owner's version replaces an earlier owner's, and the
	// earlier owner's is then no longer known.
	th.learn(5, gen2|1)
	if th.knows(5, gen1|7) || !th.knows(5, gen2|1) {
		t.Errorf("after learning gen 2: vv[5] = %#x", th.vv[5])
	}
	th.learn(5, gen1|9)
	if th.vv[5] != gen2|1 {
		t.Errorf("an older generation replaced a newer one: vv[5] = %#x", th.vv[5])
	}
	// No versions: nothing is known of t's own clock.
	nv := &thread{tid: 0}
	if nv.knows(0, gen1|1) {
		t.Error("a thread without versions knows its own slot's version")
	}
	if _, v := nv.vepoch(); v != 0 {
		t.Errorf("vepoch of a thread without versions = %#x", v)
	}
	// Running out of versions disables them.
	th.ver = gen1 | verCountMask
	th.changed()
	if th.ver != 0 {
		t.Errorf("ver after overflow = %#x, want 0", th.ver)
	}
}

// TestVersionSkipNeedsSameClock: outside sampling periods, an acquire
// that a version lets skip must still see every change of the releaser's
// clock since the version was learned, here a join.
func TestVersionSkipNeedsSameClock(t *testing.T) {
	setSampling(t, true)
	var m1, m2 sync.Mutex
	x := heapObject()
	site := uint64(1)

	step := make(chan struct{})
	g := GoFork()
	go func() { // thread a
		GoStart(g)
		defer GoEnd()
		<-step
		Lock(&m1)
		Unlock(&m1)
		step <- struct{}{}
		<-step
		// a's clock changes: it joins c's release of m2. Then it
		// releases m1 again.
		Lock(&m2)
		Unlock(&m2)
		Lock(&m1)
		Unlock(&m1)
		step <- struct{}{}
	}()
	// In a sampling period, c writes x and releases m2.
	inGoroutine(func() {
		Write(x, 8, site)
		Lock(&m2)
		Unlock(&m2)
	})
	switchSampling(false)
	// The test's goroutine learns the version of a's clock that a
	// released into m1.
	step <- struct{}{}
	<-step
	Lock(&m1)
	Unlock(&m1)
	step <- struct{}{}
	<-step
	// a released m1 again after its clock changed: the join must be
	// made, which orders c's write of x before this read.
	before := Races()
	Lock(&m1)
	Read(x, 8, site+1)
	Unlock(&m1)
	if n := Races() - before; n != 0 {
		t.Errorf("%d races reported on x, want 0: a skipped join lost an edge", n)
	}
}

// TestVersionMergeAfterChange: a merge that versions let skip (the object
// already covers the releaser's clock) must not skip one made after the
// releaser's clock changed.
func TestVersionMergeAfterChange(t *testing.T) {
	setSampling(t, true)
	var m sync.Mutex
	obj := heapObject()
	x := heapObject()
	site := uint64(1)

	step := make(chan struct{})
	g := GoFork()
	go func() { // thread a
		GoStart(g)
		defer GoEnd()
		<-step
		ReleaseMerge(obj)
		ReleaseMerge(obj) // covered: skipped
		// a's clock changes: it joins c's release of m.
		Lock(&m)
		Unlock(&m)
		ReleaseMerge(obj)
		step <- struct{}{}
	}()
	// In a sampling period, c writes x and releases m.
	inGoroutine(func() {
		Write(x, 8, site)
		Lock(&m)
		Unlock(&m)
	})
	switchSampling(false)
	step <- struct{}{}
	<-step
	before := Races()
	Acquire(obj)
	Read(x, 8, site+1)
	if n := Races() - before; n != 0 {
		t.Errorf("%d races reported on x, want 0: a skipped merge lost an edge", n)
	}
}
