package runtime

import (
	"fmt"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"unsafe"
	"weak"
)

// TestChannelHistorySurvivesGC checks that a channel's send and close,
// which are accesses of the channel object, keep their history across GC
// cycles while the channel lives: a close racing with a send is reported
// even when a collection completes between them. Plain heap history would
// be dropped there (see heap.go).
func TestChannelHistorySurvivesGC(t *testing.T) {
	ch := make(chan int, 1)
	keep = append(keep, ch)
	addr := ChanOf(ch)
	before := Races()
	inGoroutine(func() { Send(ch, 1, newSite(), nil) })
	goruntime.GC()
	goruntime.GC()
	Close(ch, newSite())
	if Races() == before {
		t.Errorf("close racing with a send before two GC cycles not reported")
	}
	_ = addr
}

var keep []any

var knownGlobal uint64

// TestBoundedHistory checks the lifetime of history whose memory is known
// (a global, a channel's own operations): it survives GC cycles at rate 1,
// and below rate 1 it ends at the first cycle, like heap history.
func TestBoundedHistory(t *testing.T) {
	ch := make(chan int, 1)
	keep = append(keep, ch)
	global := unsafe.Pointer(&knownGlobal)
	tests := []struct {
		name          string
		first, second func(site uint64)
	}{
		{"global",
			func(s uint64) { Write(global, 8, s|SiteGlobal) },
			func(s uint64) { Write(global, 8, s|SiteGlobal) }},
		{"channel",
			func(s uint64) { Send(ch, 1, s, nil) },
			func(s uint64) { Close(ch, s) }},
	}
	for _, tt := range tests {
		for _, bounded := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/bounded=%v", tt.name, bounded), func(t *testing.T) {
				if tt.name == "channel" && bounded {
					ch = make(chan int, 1) // the unbounded case closed the first
					keep = append(keep, ch)
				}
				setBoundedHistory(t, bounded)
				before := Races()
				inGoroutine(func() { tt.first(newSite()) })
				goruntime.GC()
				exactGen() // the lower bound catches up with the cycle
				tt.second(newSite())
				if got := Races() > before; got == bounded {
					t.Errorf("race across a GC cycle reported = %v, want %v", got, !bounded)
				}
			})
		}
	}
}

// TestExactGenAllocates: exactGen, called for every race reported,
// allocates nothing a program's testing.AllocsPerRun would count.
func TestExactGenAllocates(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { exactGen() }); n != 0 {
		t.Errorf("exactGen: %v allocations, want 0", n)
	}
}

// TestSyncLookupKeepsObjectAlive checks that a synchronization hook keeps
// its object alive while the detector makes the object's syncVar, which
// turns the object's address into a weak pointer: when the hook is the
// program's last use of the object (wg.Wait() at the end of a function),
// an object passed as a bare address could be freed by a collection
// during the lookup, and the pointer made from its address then pointed
// to free memory, which the collector reports as "found pointer to free
// object" and kills the program.
func TestSyncLookupKeepsObjectAlive(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   func(p *[2]*int) // the last use of p
	}{
		{"Acquire", func(p *[2]*int) { Acquire(unsafe.Pointer(p)) }},
		{"Release", func(p *[2]*int) { Release(unsafe.Pointer(p)) }},
		{"ReleaseMerge", func(p *[2]*int) { ReleaseMerge(unsafe.Pointer(p)) }},
		{"ChanPreClose", func(p *[2]*int) { ChanPreClose(unsafe.Pointer(p), newSite()) }},
		{"atomic.Pointer.Load", func(p *[2]*int) {
			AtomicPointerLoad((*atomic.Pointer[int])(unsafe.Pointer(&p[0])), newSite())
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setSampling(t, true)
			var w weak.Pointer[[2]*int]
			called, died := false, false
			testHookNewSyncVar = func() {
				called = true
				goruntime.GC()
				goruntime.GC()
				died = w.Value() == nil
			}
			t.Cleanup(func() { testHookNewSyncVar = nil })
			inGoroutine(func() {
				p := new([2]*int)
				w = weak.Make(p)
				tc.op(p)
			})
			if !called {
				t.Fatalf("%s made no syncVar", tc.name)
			}
			if died {
				t.Errorf("the object died while %s looked it up", tc.name)
			}
		})
	}
}

// TestSyncSweepAllocates checks that once warm, forgetting dead
// synchronization objects after a GC cycle allocates nothing:
// testing.AllocsPerRun counts every allocation of the process, the
// detector's too, and the sweeper's fresh tables for a few hundred
// shards failed fasthttp's allocation tests whenever a collection fell
// inside their loops.
func TestSyncSweepAllocates(t *testing.T) {
	setSampling(t, true)
	cycle := func(objects int) uint64 {
		for range objects {
			Acquire(unsafe.Pointer(new([2]*int)))
		}
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		goruntime.GC() // the objects die, and their weak pointers go nil
		syncs.sweep(exactGen())
		goruntime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs
	}
	// The first cycles grow the tables to their size for a few objects
	// a shard and make the shards' spare tables. A burst of objects then
	// grows them, with spares of the new size, and dies: tables up to
	// keptSlots keep their size rather than shrink back.
	for range 3 {
		cycle(512)
	}
	for i, objects := range []int{512, 512, 40000, 512, 512} {
		if n := cycle(objects); n > 16 {
			t.Errorf("cycle %d (%d objects): %d allocations while the sync table was swept, want none", i, objects, n)
		}
	}
}

// setBoundedHistory sets boundedHistory for the rest of the test, between
// two passes of the sweeper, which reads it.
func setBoundedHistory(t *testing.T, on bool) {
	t.Helper()
	sweepMu.Lock()
	was := boundedHistory
	boundedHistory = on
	sweepMu.Unlock()
	t.Cleanup(func() {
		sweepMu.Lock()
		boundedHistory = was
		sweepMu.Unlock()
	})
}

// TestSyscallHooksCatchUp checks that the hooks of package syscall's
// annotations bring a count of GC cycles that lags, as it does until the
// sentinel's finalizer runs, up to the exact one.
func TestSyscallHooksCatchUp(t *testing.T) {
	gateInc() // the hooks catch up only while the gate is open
	defer gateDec()
	var x [2]*int
	for _, h := range []struct {
		name string
		f    func(unsafe.Pointer)
	}{
		{"SyscallAcquire", SyscallAcquire},
		{"SyscallReleaseMerge", SyscallReleaseMerge},
	} {
		goruntime.GC()
		n := exactGen()
		gcGen.Store(n - 1) // a lower bound still: the finalizer has not run
		h.f(unsafe.Pointer(&x))
		if g := gcGen.Load(); g != n {
			t.Errorf("after %s: count %d, want the exact %d", h.name, g, n)
		}
	}
}
