package runtime

import (
	goruntime "runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Memory reuse (LARD's third rule): when the garbage collector frees an
// object, the next object at the same address must not inherit its access
// history. Go offers no allocation or free hooks outside the runtime, so
// the detector reasons about GC cycles instead. An object that was
// accessed while n GC cycles had completed can only be freed by a cycle
// that completes later, so if no cycle has completed since a granule's
// history was recorded, the granule still belongs to the same object. Each
// heap granule remembers the cycle count (a lower bound of it, read
// cheaply) at which its history began; a race is reported only if the
// exact count, read at report time, is the same. Histories that straddle a
// GC cycle are discarded: a possible miss, never a false report.
//
// Synchronization objects cannot be treated that way, because forgetting a
// release clock invents races. They hold a weak pointer to their address
// instead, which the runtime clears exactly when the object dies.

// Below rate 1 the same bound applies to the history of globals and of
// channels' own operations (cellGlobal), which the memory they describe
// would otherwise let live for as long as the program or the channel:
// that history would keep the gate open, and every hook paying the slow
// test, long after the sampling period that recorded it. At rate 0.001,
// where a sampling period comes every second or so, fasthttp's global
// read sets (tables that every connection's goroutine reads) kept the gate
// open from the first sampling period to the end of the run. The price is
// the races on such memory whose accesses straddle a GC cycle, which a
// sampled run already misses on the heap; at rate 1 the gate is always
// open, and nothing is gained by forgetting.
var boundedHistory bool

// expired reports whether the history in c, begun when c.gen cycles had
// completed, is to be dropped now that gen have. It inlines into every
// access, where the first comparison is nearly always false.
func (c *cell) expired(gen uint32) bool {
	return c.gen < gen && (boundedHistory || !c.global())
}

// gcGen is a lower bound of the number of completed GC cycles, advanced by
// a finalizer on a sentinel object after each cycle.
var gcGen atomic.Uint32

// gcCycles is the sample exactGen reads, under its lock: a sample made
// at each call escapes to metrics.Read, and it is called for every race
// reported, whose allocations a program's testing.AllocsPerRun counts as
// its own. (metrics.Read costs about 90,000 instructions, so it is kept
// off every path that runs per object: fastcache at rate 1 spent a fifth
// of its instructions in it when every new synchronization object read
// it.)
var gcCycles struct {
	mu spinLock
	s  [1]metrics.Sample
}

// exactGen returns the number of completed GC cycles.
func exactGen() uint32 {
	gcCycles.mu.Lock()
	return readGen()
}

// catchUpGen brings gcGen up to the exact count, unless another goroutine
// is reading the count now, which is as good. The finalizer that counts a
// cycle runs milliseconds after it, once the sweeper has reached it and
// the finalizer goroutine is scheduled. A history begun before it runs
// carries the old count, and so is dropped at the next access after it or
// withheld from a report (reportRace). The system call hooks catch up, at
// 125 ns a read (metrics.Read of one sample), a fraction of the call.
func catchUpGen() {
	if gcCycles.mu.TryLock() {
		readGen()
	}
}

// readGen is exactGen once gcCycles.mu is held, which it releases.
func readGen() uint32 {
	s := &gcCycles.s
	s[0].Name = "/gc/cycles/total:gc-cycles"
	metrics.Read(s[:])
	ok := s[0].Value.Kind() == metrics.KindUint64
	var n uint32
	if ok {
		n = uint32(s[0].Value.Uint64())
	}
	gcCycles.mu.Unlock()
	if !ok {
		return ^uint32(0) // unknown: make every heap history stale
	}
	for {
		old := gcGen.Load()
		if old >= n || gcGen.CompareAndSwap(old, n) {
			return n
		}
	}
}

// goObject reports whether p points into a Go heap object or a global
// variable: the addresses weak.Make accepts. runtime.AddCleanup panics,
// recoverably, on any other pointer (the goroutine stacks, memory the Go
// heap does not manage), and its Cleanup is stopped at once, so it serves
// as the probe.
func goObject(p unsafe.Pointer) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	goruntime.AddCleanup((*byte)(p), func(int) {}, 0).Stop()
	return true
}

// goPages remembers the system pages in which goObject found Go memory,
// so that a new synchronization object on such a page is not probed
// again: each probe, and the weak pointer made after it, walks the list
// of the runtime's specials of the object's span, which holds a weak
// handle for every address inside the span that has one. fastcache keeps
// 512 buckets, each with its lock and atomic counters, in one array, and
// at rate 1 its Cache(Set|Get) benchmarks spent 7.6% of their
// instructions probing (callgrind): 35,000 instructions a new object.
//
// A page where a probe found Go memory stays Go memory. The Go runtime
// never unmaps its heap, and the data and bss of the binary do not move.
// What such a page can become is another kind of Go memory: a heap
// page that a span freed can be handed to a goroutine's stack, where
// weak.Make does not work. But a goroutine holds a pointer into no stack
// but its own, and lookupSync sends those away before it asks (stack.go):
// every other pointer into the page points into a live heap object or a
// global. That test needs the stack's bounds, read with getg (haveGetg);
// without them every object is probed. A system page, not the Go heap's
// 8 KiB one, so that the last page of the bss is not taken for the C heap
// that may follow it.
//
// Each slot holds a page number or 0; a page whose slot another page
// took is probed again, which only costs time.
var goPages [goPageSlots]atomic.Uintptr

const (
	goPageShift = 12
	goPageBits  = 10
	goPageSlots = 1 << goPageBits
)

// goPageSlot returns the slot of goPages that may hold page pg.
func goPageSlot(pg uintptr) *atomic.Uintptr {
	return &goPages[(pg*0x9e3779b97f4a7c15)>>(64-goPageBits)]
}

// goObjectOffStack is goObject for a pointer known not to lie on the
// running goroutine's stack.
func goObjectOffStack(p unsafe.Pointer) bool {
	pg := uintptr(p) >> goPageShift
	if !haveGetg || pg == 0 {
		return goObject(p)
	}
	slot := goPageSlot(pg)
	if slot.Load() == pg {
		return true
	}
	if !goObject(p) {
		return false
	}
	slot.Store(pg)
	return true
}

// gcSentinel re-arms itself after every GC cycle and wakes the sweeper.
type gcSentinel struct{ _ [16]byte }

var sweepWake = make(chan struct{}, 1)

func armSentinel() { rearm(new(gcSentinel)) }

// rearm makes s, which nothing else references, run sentinelFired when
// the next GC cycle finds it unreachable. The finalizer re-arms the same
// object rather than a new one, so that the detector allocates nothing
// per cycle: testing.AllocsPerRun counts every allocation of the process.
func rearm(s *gcSentinel) { goruntime.SetFinalizer(s, sentinelFired) }

func sentinelFired(s *gcSentinel) {
	// Catch up with the runtime's count rather than add one: a
	// report may already have caught up with the cycle this
	// finalizer follows (exactGen), and counting it again would
	// put gcGen ahead of the real count. gcGen must stay a lower
	// bound, or a history begun before a cycle would pass for one
	// begun after it and be compared with the next object at its
	// address.
	exactGen()
	select {
	case sweepWake <- struct{}{}:
	default:
	}
	rearm(s)
}

// sweeper drops the metadata of dead objects after each GC cycle, which
// bounds the detector's memory by what the live program touched, and
// forgets old history when the pacer asks (expire.go).
func sweeper() {
	for {
		select {
		case <-sweepWake:
			sweepMu.Lock()
			gen := exactGen()
			shadow.sweep(gen)
			syncs.sweep(gen)
			spawns.sweep(gen)
			sweepMu.Unlock()
		case p := <-expireWake:
			sweepMu.Lock()
			expire(p)
			sweepMu.Unlock()
		}
	}
}

// sweepMu is held by the sweeper through each of its passes, so that the
// tests that change boundedHistory, which the passes read, do so between
// them. Programs set it once, before the sweeper starts.
var sweepMu sync.Mutex
