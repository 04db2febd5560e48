package runtime

import (
	"sync"
	"unsafe"
	"weak"
)

// A syncVar is the detector's state for one synchronization object: a
// mutex, channel, WaitGroup, Once, Cond, sync.Map, Pool or atomic
// variable, found by its address.
type syncVar struct {
	mu sync.Mutex
	// rel is the clock released by writers, senders, unlockers and
	// atomic stores; acquirers join it.
	rel syncClock
	// rrel is a second clock for the other direction: RWMutex readers
	// release into it for the next writer, and channel receivers release
	// into it for the sends that complete after their receive.
	rrel syncClock

	// live points weakly at the object, which lets the detector forget
	// it when it dies and tell a new object at the same address from it.
	// Memory the Go heap does not manage has no weak pointer (heap is
	// false) and is remembered for the life of the program.
	live weak.Pointer[byte]
	heap bool
	// born is the exact number of completed GC cycles when the syncVar
	// was made, after its object was allocated: access history of the
	// object's address begun at or after born belongs to the object as
	// long as live says it is alive (see cell.owned).
	born uint32
}

type syncShard struct {
	mu sync.Mutex
	m  map[uintptr]*syncVar
	_  [64 - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof(map[uintptr]*syncVar(nil))]byte
}

type syncTable struct {
	shards [256]syncShard
}

var syncs syncTable

// lookupSync returns the syncVar for the object at addr, creating it if
// needed, or nil for objects on the current goroutine's stack, which no
// other goroutine can synchronize with, and when t is nil (the gate is
// closed).
func lookupSync(t *thread, addr uintptr) *syncVar {
	if staticSync || t == nil || addr == 0 {
		return nil
	}
	if t.g != 0 {
		if lo, hi := stackBounds(t.g); addr >= lo && addr < hi {
			return nil
		}
	}
	h := addr * 0x9e3779b97f4a7c15
	sh := &syncs.shards[h>>(64-8)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sv := sh.m[addr]
	if sv != nil && sv.heap && sv.live.Value() == nil {
		sv = nil // the object died; this is a new one at its address
	}
	if sv == nil {
		p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
		sv = &syncVar{heap: goObject(p)}
		if sv.heap {
			sv.live = weak.Make((*byte)(p))
			sv.born = exactGen()
		}
		if sh.m == nil {
			sh.m = make(map[uintptr]*syncVar)
		}
		sh.m[addr] = sv
	}
	return sv
}

// sweep forgets the synchronization objects that died.
func (s *syncTable) sweep() {
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for a, sv := range sh.m {
			if sv.heap && sv.live.Value() == nil {
				delete(sh.m, a)
			}
		}
		sh.mu.Unlock()
	}
}

// release stores t's clock into sv (Cm ← Ct) and ticks t: the release of
// an exclusive lock, which every later acquirer is ordered after.
func (sv *syncVar) release(t *thread) {
	if staticSync {
		t.onSync()
		return
	}
	if sv == nil || t == nil {
		return
	}
	sv.mu.Lock()
	sv.rel.store(t)
	sv.mu.Unlock()
	t.tick()
}

// releaseMerge joins t's clock into sv (Cm ← Cm ⊔ Ct) and ticks t: a
// release that does not supersede the releases before it.
func (sv *syncVar) releaseMerge(t *thread) {
	if staticSync {
		t.onSync()
		return
	}
	if sv == nil || t == nil {
		return
	}
	sv.mu.Lock()
	sv.rel.merge(t)
	sv.mu.Unlock()
	t.tick()
}

// acquire joins sv's clock into t (Ct ← Ct ⊔ Cm).
func (sv *syncVar) acquire(t *thread) {
	if staticSync {
		t.onSync()
		return
	}
	if sv == nil || t == nil {
		return
	}
	sv.mu.Lock()
	t.acquire(&sv.rel)
	sv.mu.Unlock()
}

// releaseReverse joins t's clock into sv's second clock and ticks t.
func (sv *syncVar) releaseReverse(t *thread) {
	if staticSync {
		t.onSync()
		return
	}
	if sv == nil || t == nil {
		return
	}
	sv.mu.Lock()
	sv.rrel.merge(t)
	sv.mu.Unlock()
	t.tick()
}

// acquireReverse joins sv's second clock into t.
func (sv *syncVar) acquireReverse(t *thread) {
	if staticSync {
		t.onSync()
		return
	}
	if sv == nil || t == nil {
		return
	}
	sv.mu.Lock()
	t.acquire(&sv.rrel)
	sv.mu.Unlock()
}

// Acquire orders the current goroutine after every Release and
// ReleaseMerge on addr so far. With Release it models synchronization in
// code that racegen does not instrument.
func Acquire(addr uintptr) {
	t := syncer()
	lookupSync(t, addr).acquire(t)
}

// Release makes addr carry the current goroutine's clock, replacing what
// earlier releases left: use it for exclusive handoffs such as unlocking.
func Release(addr uintptr) {
	t := syncer()
	lookupSync(t, addr).release(t)
}

// ReleaseMerge adds the current goroutine's clock to what addr carries:
// use it where several goroutines release to one acquirer.
func ReleaseMerge(addr uintptr) {
	t := syncer()
	lookupSync(t, addr).releaseMerge(t)
}

// A syncRef carries a synchronization object from the hook before an
// operation to the hook after it: the object's address and its syncVar,
// nil if the gate was closed before the operation.
type syncRef struct {
	addr uintptr
	sv   *syncVar
}

// object returns the syncVar for the half of the operation that follows
// it, looking it up if the gate was closed before the operation but may
// have opened while it ran or blocked: an acquire made while the gate is
// open must not be skipped (see gate).
func (r syncRef) object(t *thread) *syncVar {
	if r.sv == nil {
		return lookupSync(t, r.addr)
	}
	return r.sv
}

func addrOf[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }
