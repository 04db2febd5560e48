package runtime

import (
	"sync"
	"sync/atomic"
)

// Slots are the indices of vector clocks: each goroutine the detector
// knows holds one (its tid), and every vector clock has an entry per slot,
// so the number of slots in use is what a join costs. There are at most
// opts.slots of them, as go build -race's detector has at most 256: a
// program with ten thousand pool workers alive at once would otherwise
// join ten-thousand-entry clocks at every acquire.
//
// Slots of finished goroutines are reused in FIFO order after a
// quarantine, so that a race between a finished goroutine and one of the
// next quarantineSlots goroutines is still seen: a reused slot continues
// its predecessor's clock, which orders the predecessor's accesses before
// the successor's (a possible miss, never a false report). Once every
// slot is in use the quarantine is cut short, and once every slot is held
// by a live goroutine, a new goroutine shares one (sharing below).
//
// The slot table maps tids to the thread that holds them (or last held
// them, until the slot is reused).
const quarantineSlots = 1024

// defaultSlots is the default of the slots option.
const defaultSlots = 1024

var slots struct {
	mu    sync.Mutex
	tab   atomic.Pointer[[]atomic.Pointer[thread]]
	next  uint32   // first never-used tid
	free  []uint32 // FIFO of finished tids
	head  int      // index of the oldest entry in free
	clock []uint64 // highest clock a finished goroutine on each tid reached
	gen   []uint32 // owners each tid has had, for versions (version.go)

	// Sharing. Goroutines that get a slot another live goroutine holds
	// are sharers: they are not in tab but in shared, until they end.
	shared       []*thread
	nextShare    uint32
	sinceReclaim uint32 // goroutines that shared since the last reclaimSlots
	// sharerClock is the highest clock a finished sharer that was not a
	// cleanup context reached on each tid.
	sharerClock []uint64
}

// sharedEver has a bit set for each slot that has ever been shared, whose
// accesses cannot be told apart by goroutine in reports. It has a bit for
// every possible tid, in pages that stay unmapped until a bit is set.
var sharedEver [(maxTid + 1) / 64]atomic.Uint64

func markShared(tid uint32)     { sharedEver[tid/64].Or(1 << (tid % 64)) }
func wasShared(tid uint32) bool { return sharedEver[tid/64].Load()&(1<<(tid%64)) != 0 }

// Sharing a slot. Two goroutines on one slot each keep their own clock for
// it, and an access is recorded as slot@clock, so the detector cannot
// tell their accesses apart. That can hide a race (between the two, or
// with a third goroutine that knows one of them past the other's clock)
// but never invents one, provided a goroutine's own clock is never below
// what it knows of its slot: a goroutine that acquires another sharer's
// release must find that sharer's accesses ordered before it. catchUp
// keeps that invariant wherever a goroutine's vector clock grows.

// allocTid returns a slot for a new goroutine, the clock it starts at,
// the slot's owner generation (0 for a sharer: goroutines sharing a slot
// have no versions) and whether the slot is shared.
func allocTid() (tid uint32, clock uint64, gen uint32, shared bool) {
	slots.mu.Lock()
	defer slots.mu.Unlock()
	return allocTidLocked()
}

// allocTidLocked is allocTid with slots.mu held.
func allocTidLocked() (tid uint32, clock uint64, gen uint32, shared bool) {
	limit := uint32(opts.slots)
	queued := len(slots.free) - slots.head
	if queued > quarantineSlots || queued > 0 && slots.next >= limit {
		tid := slots.free[slots.head]
		slots.head++
		if slots.head > len(slots.free)/2 && slots.head > 4096 {
			slots.free = append(slots.free[:0], slots.free[slots.head:]...)
			slots.head = 0
		}
		if slots.gen[tid] < maxVerGen {
			slots.gen[tid]++
		}
		return tid, slots.clock[tid] + 1, slots.gen[tid], false
	}
	if slots.next < limit {
		tid := slots.next
		slots.next++
		slots.clock = append(slots.clock, 0)
		slots.sharerClock = append(slots.sharerClock, 0)
		slots.gen = append(slots.gen, 1)
		return tid, 1, 1, false
	}
	// A scan costs a look at every holder: make one only after a
	// quarter of the slots' worth of goroutines has shared since the
	// last, so that it costs a few loads a goroutine.
	if slots.sinceReclaim++; slots.sinceReclaim > limit/4 {
		slots.sinceReclaim = 0
		if reclaimSlots(limit) {
			return allocTidLocked()
		}
	}
	// Every slot is held by a live goroutine: share one, round robin,
	// continuing the clock of the goroutine in the table.
	tid = slots.nextShare % limit
	slots.nextShare++
	markShared(tid)
	clock = slots.clock[tid]
	if u := slotThread(tid); u != nil {
		clock = max(clock, u.epoch().clock())
	}
	return tid, clock + 1, 0, true
}

// reclaimSlots frees, with slots.mu held, the slots below limit whose
// holders have ended without freeing them, and reports whether it freed
// any. Goroutines that racegen did not start and those that GoSpawn
// started call no GoEnd; current frees a slot when it finds the holder's
// g running another goroutine, but only once that goroutine calls a hook.
// Looking at every holder's g when no slot is left finds them all, where
// a go statement after another would otherwise make every new goroutine
// share a slot (bench/ops's BenchmarkGo: go wg.Done() in a loop).
func reclaimSlots(limit uint32) bool {
	tab := slots.tab.Load()
	if tab == nil || goidOff == 0 {
		return false // without goroutine ids, every holder looks ended
	}
	freed := false
	for tid := range min(int(limit), len(*tab)) {
		t := (*tab)[tid].Load()
		if t == nil || t.g == 0 || t.goid == 0 || t.runsOn(t.g) {
			continue
		}
		if t.finished.CompareAndSwap(false, true) {
			// Its g runs another goroutine: t's has ended, and only
			// reports read t now.
			freeTidLocked(t)
			t.vc, t.cache, t.vv = nil, nil, nil
			freed = true
		}
	}
	return freed
}

// freeTid returns t's slot to the pool, or, for a sharer, leaves the slot
// to the goroutine that holds it.
func freeTid(t *thread) {
	slots.mu.Lock()
	defer slots.mu.Unlock()
	freeTidLocked(t)
}

// freeTidLocked is freeTid with slots.mu held.
func freeTidLocked(t *thread) {
	if int(t.tid) >= len(slots.clock) {
		return
	}
	c := t.epoch().clock()
	slots.clock[t.tid] = max(slots.clock[t.tid], c)
	if t.sharer {
		if !t.cleanup {
			slots.sharerClock[t.tid] = max(slots.sharerClock[t.tid], c)
		}
		i, last := t.sharedAt, len(slots.shared)-1
		if i <= last && slots.shared[i] == t {
			slots.shared[i] = slots.shared[last]
			slots.shared[i].sharedAt = i
			slots.shared[last] = nil
			slots.shared = slots.shared[:last]
		}
		return
	}
	if t.tid == 0 {
		return
	}
	slots.free = append(slots.free, t.tid)
}

// publish records t as the holder of its slot, or as one of its sharers.
func publish(t *thread) {
	if t.sharer {
		slots.mu.Lock()
		t.sharedAt = len(slots.shared)
		slots.shared = append(slots.shared, t)
		slots.mu.Unlock()
		return
	}
	tab := slots.tab.Load()
	if tab == nil || int(t.tid) >= len(*tab) {
		slots.mu.Lock()
		tab = slots.tab.Load()
		if tab == nil || int(t.tid) >= len(*tab) {
			n := 1024
			if tab != nil {
				n = 2 * len(*tab)
			}
			for n <= int(t.tid) {
				n *= 2
			}
			nt := make([]atomic.Pointer[thread], n)
			if tab != nil {
				for i := range *tab {
					nt[i].Store((*tab)[i].Load())
				}
			}
			slots.tab.Store(&nt)
			tab = &nt
		}
		slots.mu.Unlock()
	}
	(*tab)[t.tid].Store(t)
	// A concurrent grow may have copied the table before our store.
	if nt := slots.tab.Load(); nt != tab {
		slots.mu.Lock()
		(*slots.tab.Load())[t.tid].Store(t)
		slots.mu.Unlock()
	}
}

// slotThread returns the thread that holds or last held slot tid.
func slotThread(tid uint32) *thread {
	tab := slots.tab.Load()
	if tab == nil || int(tid) >= len(*tab) {
		return nil
	}
	return (*tab)[tid].Load()
}

// slotOwner returns the goroutine whose access at e was recorded, if it
// can be known: the slot's holder from e's clock on, unless the slot has
// been shared.
func slotOwner(e epoch) *thread {
	tid := e.tid()
	if wasShared(tid) {
		return nil
	}
	if p := slotThread(tid); p != nil && e.clock() >= p.start {
		return p
	}
	return nil
}

// everyClock returns a vclock holding every slot's current clock: the
// highest of those of the goroutines that hold or share the slot, or that
// held or shared it and finished, whose clock the next holder continues.
// With exceptCleanups it leaves out cleanup contexts (see Cleanup). It
// fills reuse, a vclock no one else holds, if it is not nil.
func everyClock(exceptCleanups bool, reuse *vclock) *vclock {
	vc := reuse
	if vc == nil {
		vc = &vclock{}
	}
	vc.c = vc.c[:0]
	if tab := slots.tab.Load(); tab != nil {
		if cap(vc.c) >= len(*tab) {
			vc.c = vc.c[:len(*tab)]
			clear(vc.c)
		} else {
			vc.c = make([]uint64, len(*tab))
		}
		for i := range *tab {
			if u := (*tab)[i].Load(); u != nil && !(exceptCleanups && u.cleanup) {
				vc.c[i] = u.epoch().clock()
			}
		}
	}
	slots.mu.Lock()
	for _, u := range slots.shared {
		if exceptCleanups && u.cleanup {
			continue
		}
		if c := u.epoch().clock(); c > vc.get(u.tid) {
			vc.set(u.tid, c)
		}
	}
	for tid, c := range slots.sharerClock {
		if !exceptCleanups {
			c = max(c, slots.clock[tid])
		}
		if c > vc.get(uint32(tid)) {
			vc.set(uint32(tid), c)
		}
	}
	slots.mu.Unlock()
	// The table has room for more slots than were ever used; trim the
	// zero tail, which every go statement of a thread holding vc would
	// otherwise copy.
	n := len(vc.c)
	for n > 0 && vc.c[n-1] == 0 {
		n--
	}
	vc.c = vc.c[:n]
	return vc
}
