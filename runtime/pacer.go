package runtime

import (
	"math/rand/v2"
	"sync/atomic"
	"time"
	"unsafe"
)

// Pacer (Bond, Coons and McKinley, PLDI 2010) samples race detection by
// global periods: in a sampling period the detector runs FastTrack; in a
// non-sampling period it records nothing new, keeps checking and then
// discarding the metadata it already has, and lets vector clocks stand
// still. A race is reported when its first access falls in a sampling
// period, so each race is found with probability equal to the share of
// the program's work done while sampling: the rate r.
//
// Pacer switches periods at garbage collections, which stop every thread.
// Go offers no such pause to a library, so here a controller goroutine
// switches them, and each goroutine notices a new sampling period at its
// next sampled operation, when it advances its own clock (Pacer advances
// every clock at the start of a sampling period, so that accesses in it
// are not mistaken for ones ordered before an earlier release; advancing
// lazily, before the goroutine's first sampled operation, is equivalent).

// sampling is 1 during a sampling period. It is read on every access.
var sampling atomic.Uint32

// samplingPeriod counts the sampling periods started; a goroutine that
// has not yet seen the current one advances its clock first.
var samplingPeriod atomic.Uint32

// rate is the sampling rate in force.
var rate float64

// The filter tells, without a lock, whether a granule may have metadata:
// it counts the cells of the granules that hash to each entry. Outside
// sampling periods an access to a granule whose entry is zero needs no
// further work; this is Pacer's "sampling || metadata != null" test, for
// an address instead of an object header. pageFilter counts cells per
// 4 KiB page, for range accesses.
const (
	filterBits = 16
	pageBits   = 12
)

var (
	filter     [1 << filterBits]atomic.Uint32
	pageFilter [1 << pageBits]atomic.Uint32
)

// filterIndex hashes the granule of address a.
func filterIndex(a uintptr) uintptr {
	return (a >> 3) * 0x9e3779b97f4a7c15 >> (64 - filterBits)
}

func pageIndex(a uintptr) uintptr {
	return (a >> 12) * 0x9e3779b97f4a7c15 >> (64 - pageBits)
}

// filterAdd records that a cell for granule a was created (d = 1) or
// deleted (d = -1).
func filterAdd(a uintptr, d int32) {
	filter[filterIndex(a)].Add(uint32(d))
	pageFilter[pageIndex(a)].Add(uint32(d))
}

// skip reports whether an access of size bytes at addr needs no work:
// outside a sampling period, within one granule that has no metadata. It
// is small enough to be inlined into the hooks; everything else (ranges,
// sampling periods) goes to accessSlow, which rechecks.
func skip(addr, size uintptr) bool {
	return sampling.Load()|filter[filterIndex(addr)].Load() == 0 && addr&7+size <= 8
}

// skipRange is skip for accesses that span granules: it consults the page
// filter first.
func skipRange(addr, size uintptr) bool {
	if sampling.Load() != 0 {
		return false
	}
	for p := addr &^ 4095; p < addr+size; p += 4096 {
		if pageFilter[pageIndex(p)].Load() != 0 {
			lo, hi := max(p, addr), min(p+4096, addr+size)
			for a := lo &^ 7; a < hi; a += 8 {
				if filter[filterIndex(a)].Load() != 0 {
					return false
				}
			}
		}
	}
	return true
}

// The controller measures the program's work in synchronization
// operations, as Pacer does: unlike time or allocation, their number does
// not depend on whether the detector is sampling. A period lasts until
// periodWork operations (or, in a program that rarely synchronizes,
// periodTime) have passed; then the next period samples with probability
// p. p starts at r and is corrected by the deficit between the work that
// should have been sampled (r times all work) and the work that was, so
// that the share of work done while sampling converges to r (Pacer's
// Table 1) even though sampling periods run more slowly.
const (
	periodWork = 2000
	periodTime = 2 * time.Millisecond
	pacerTick  = 200 * time.Microsecond
)

// syncOps counts synchronization operations, striped to keep goroutines
// on different cores from contending for one counter.
var syncOps [16]struct {
	n atomic.Uint64
	_ [56]byte
}

func countSync(t *thread) { syncOps[t.tid&15].n.Add(1) }

func totalSyncOps() uint64 {
	var n uint64
	for i := range syncOps {
		n += syncOps[i].n.Load()
	}
	return n
}

// pacerStats are the controller's measurements, for tests and -v.
var pacerStats struct {
	sampledWork, totalWork  atomic.Uint64
	periods, sampledPeriods atomic.Uint64
}

// startSampling sets the sampling state for rate r. Rates 0 and 1 need no
// controller.
func startSampling(r float64) {
	rate = r
	switch {
	case r >= 1:
		samplingPeriod.Add(1)
		sampling.Store(1)
	case r <= 0:
		sampling.Store(0)
	default:
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(uintptr(unsafe.Pointer(&r)))))
		ready := make(chan struct{})
		go pace(r, rng, ready)
		<-ready
	}
}

// pace runs the sampling periods of rate r for the life of the program.
func pace(r float64, rng *rand.Rand, ready chan<- struct{}) {
	var sampled, total float64
	p := r
	last := totalSyncOps()
	start := time.Now()
	// The first period is decided at once, so that the start of the
	// program is sampled with probability r like the rest of it.
	on := rng.Float64() < p
	if on {
		pacerStats.sampledPeriods.Add(1)
		samplingPeriod.Add(1)
		sampling.Store(1)
	}
	close(ready)
	for {
		time.Sleep(pacerTick)
		now := totalSyncOps()
		work := now - last
		if work < periodWork && time.Since(start) < periodTime {
			continue
		}
		// A period in which the program did not synchronize still
		// counts as one unit of work, so that time stands in for work.
		w := float64(work) + 1
		total += w
		if on {
			sampled += w
			pacerStats.sampledWork.Add(uint64(w))
		}
		pacerStats.totalWork.Add(uint64(w))
		pacerStats.periods.Add(1)

		// Correct p by the deficit, measured in periods of average work.
		avg := total / float64(pacerStats.periods.Load())
		p = r + (r*total-sampled)/avg
		p = min(max(p, 0), 1)
		on = rng.Float64() < p
		if on {
			pacerStats.sampledPeriods.Add(1)
			samplingPeriod.Add(1)
			sampling.Store(1)
		} else {
			sampling.Store(0)
		}
		last, start = now, time.Now()
	}
}
