package runtime_test

import (
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"

	rt "github.com/racegen/racegen/runtime"
)

// TestChurn and TestLazyChurn run before TestManyLiveGoroutines on
// purpose: they check that slots are reused as goroutines end, which the
// slot limit that TestManyLiveGoroutines reaches would otherwise enforce.

// TestChurn starts and ends goroutines by the million, a few hundred at a
// time, and checks that the detector's memory stays bounded: goroutine
// slots are reused after the quarantine, the histories of dead objects
// are swept after GC cycles, and the heap does not grow with the number
// of goroutines that ever ran.
func TestChurn(t *testing.T) {
	total, batch := 1_000_000, 500
	if testing.Short() || raceEnabled {
		total = 200_000
	}
	enableGC(t)
	sW, sR := newSite(), newSite()
	round := func(rounds int) {
		for range rounds {
			wg := new(sync.WaitGroup)
			objs := make([]*uint64, batch)
			for i := range objs {
				objs[i] = new(uint64)
				rt.WaitGroupAdd(wg, 1)
				g := rt.GoFork()
				go func() {
					rt.GoStart(g)
					defer rt.GoEnd()
					defer rt.WaitGroupDone(wg)
					rt.Write(unsafe.Pointer(objs[i]), 8, sW)
				}()
			}
			rt.WaitGroupWait(wg)
			for _, p := range objs {
				rt.Read(unsafe.Pointer(p), 8, sR)
			}
		}
	}
	measure := func() (heap uint64, slots, cells int) {
		runtime.GC()
		rt.Sweep()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		slots, _ = rt.Slots()
		return ms.HeapInuse, slots, rt.ShadowCells()
	}
	start := time.Now()
	expectRaces(t, 0, func() {
		heapBase, _, _ := measure()
		round(100) // warm up: tables and free lists at their working size
		heap0, slots0, cells0 := measure()
		round(total/batch - 100)
		heap1, slots1, cells1 := measure()
		t.Logf("%d goroutines in %v: heap in use %d -> %d KB, slots %d -> %d, shadow cells %d -> %d",
			total, time.Since(start), heap0>>10, heap1>>10, slots0, slots1, cells0, cells1)
		// Slots are bounded by the goroutines holding one at once plus
		// the quarantine. A goroutine's deferred WaitGroupDone runs
		// before its deferred GoEnd, so Wait can return while a whole
		// batch still holds its slots, and the next batch starts beside
		// it: at most two batches. How many actually overlap depends on
		// scheduling, so the count after the warm-up is not a bound.
		if limit := 2*batch + rt.QuarantineSlots + 64; slots1 > limit {
			t.Errorf("goroutine slots grew from %d to %d, above %d (two batches of %d plus the quarantine)", slots0, slots1, limit, batch)
		}
		if cells1 > cells0+2*batch {
			t.Errorf("shadow cells grew from %d to %d", cells0, cells1)
		}
		// What the detector keeps for a finished goroutine, while its
		// slot waits in quarantine, must be small: a few MB for all.
		if heap0 > heapBase+8<<20 || heap1 > heap0+8<<20 {
			t.Errorf("heap in use grew from %d to %d to %d KB", heapBase>>10, heap0>>10, heap1>>10)
		}
	})
}

// TestLazyChurn is TestChurn for goroutines started by code racegen did not
// instrument (plain go statements here): the detector registers them at
// their first hook and never sees them end, so it must notice that they
// did when their g runs another goroutine, and reuse their slots.
func TestLazyChurn(t *testing.T) {
	total, batch := 200_000, 500
	if testing.Short() || raceEnabled {
		total = 50_000
	}
	enableGC(t)
	s := newSite()
	slots0, _ := rt.Slots()
	expectRaces(t, 0, func() {
		for range total / batch {
			var wg sync.WaitGroup
			for range batch {
				wg.Add(1)
				go func() {
					defer wg.Done()
					p := new(uint64)
					escape(p)
					rt.Write(unsafe.Pointer(p), 8, s)
					// Keep p until its access is recorded: a bare address
					// does not, and another goroutine's escape releases
					// p from sink, so the GC could hand p's address to a
					// new object before this hook runs.
					runtime.KeepAlive(p)
				}()
			}
			wg.Wait()
		}
	})
	slots1, _ := rt.Slots()
	t.Logf("%d lazily registered goroutines: slots %d -> %d", total, slots0, slots1)
	// A dead goroutine's slot is reclaimed when its g runs another
	// goroutine that calls a hook; up to a batch of gs may wait in the
	// runtime's free lists meanwhile.
	if slots1 > slots0+2*batch+rt.QuarantineSlots+64 {
		t.Errorf("goroutine slots grew from %d to %d", slots0, slots1)
	}
}

// scaleGlobal is written racily by two of the many goroutines.
var scaleGlobal [8]byte

// TestManyLiveGoroutines runs 100,000 goroutines at once, all created
// through GoFork/GoStart and all blocked until the last has started.
// Each writes its own element before and after the wait, all are joined
// through one WaitGroup, after which the test reads every element, and
// the first and a late one write a global without synchronization:
// exactly one race. Far more goroutines are alive than there are slots,
// so most share one (slots.go); the late writer is one whose slot is not
// the first's, since a race between two goroutines on one slot cannot be
// seen.
func TestManyLiveGoroutines(t *testing.T) {
	n := 100_000
	if raceEnabled {
		t.Skip("go test -race allows 8128 live goroutines")
	}
	enableGC(t)
	elems := make([]uint64, n)
	escape(elems)
	slotOf := make([]uint32, n) // written before started.Done, read after Wait
	var racer int               // written before release is closed
	wg := new(sync.WaitGroup)
	sOwn, sMain := newSite(), newSite()
	sRace1, sRace2 := newSite()|rt.SiteGlobal, newSite()|rt.SiteGlobal
	elemAddr := func(i int) unsafe.Pointer { return unsafe.Pointer(&elems[i]) }

	start := time.Now()
	expectRaces(t, 1, func() {
		var started sync.WaitGroup // plain: the detector does not see it
		release := make(chan struct{})
		firstWrote := make(chan struct{})
		for i := range n {
			started.Add(1)
			rt.WaitGroupAdd(wg, 1)
			g := rt.GoFork()
			go func() {
				rt.GoStart(g)
				defer rt.GoEnd()
				defer rt.WaitGroupDone(wg)
				rt.Write(elemAddr(i), 8, sOwn)
				slotOf[i] = rt.CurrentSlot()
				started.Done()
				<-release
				rt.Write(elemAddr(i), 8, sOwn)
				switch i {
				case 0:
					rt.Write(unsafe.Pointer(&scaleGlobal), 8, sRace1)
					close(firstWrote)
				case racer:
					<-firstWrote
					rt.Write(unsafe.Pointer(&scaleGlobal), 8, sRace2)
				}
			}()
		}
		started.Wait()
		live := runtime.NumGoroutine()
		if live < n {
			t.Errorf("%d goroutines live, want at least %d", live, n)
		}
		for racer = n - 1; racer > 0 && slotOf[racer] == slotOf[0]; racer-- {
		}
		close(release)
		rt.WaitGroupWait(wg)
		for i := range n {
			rt.Read(elemAddr(i), 8, sMain) // ordered after every Done
		}
	})
	alloc, quar := rt.Slots()
	t.Logf("%d goroutines in %v; slots allocated %d, quarantined %d", n, time.Since(start), alloc, quar)
	if limit := rt.DefaultSlots; alloc > limit {
		t.Errorf("%d slots allocated, want at most %d", alloc, limit)
	}
}
