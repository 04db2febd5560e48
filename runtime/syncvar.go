package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// A syncVar is the detector's state for one synchronization object: a
// mutex, channel, WaitGroup, Once, Cond, sync.Map, Pool or atomic
// variable, found by its address.
type syncVar struct {
	// addr is the object's address, the syncVar's key in the sync
	// table, which lock-free readers check (see syncShard).
	addr uintptr

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

	// waiters counts the goroutines in a WaitGroup's Wait, under mu
	// (see WaitGroupWait).
	waiters int32

	// hist is a channel's own access history, under mu: its sends read
	// the channel and its closes write it (chanhist.go). histOn is set while
	// hist holds any, which is one of the gate's reasons to be open.
	hist   cell
	histOn atomic.Bool
}

// The sync table finds a syncVar by address. Lookups are lock-free: a
// shard's open-addressing table changes only under the shard's lock, and
// a reader that misses a key, or finds a syncVar that is dead or is not
// the key's (syncVar.addr), retries under the lock. Inserts fill empty
// slots, a dead object's syncVar is replaced by its successor's, and the
// sweeper's rebuilds publish a new table, filled in the one the previous
// rebuild replaced: a reader still probing that old table may see it
// half cleared or half filled, hence the key check. Every sync operation
// looks its object up, so outside sampling periods, once versions have
// made the operation itself lock-free, the shard's lock was most of what
// remained.
//
// Rebuilding into the previous table rather than a new one keeps the
// sweeper from allocating after every GC cycle: testing.AllocsPerRun
// counts every allocation of the process, and the tables of a few
// hundred shards made fasthttp's TestRequestHeaderFoldedRawHeadersAllocations
// fail whenever a collection fell inside its loop
// (TestSyncSweepAllocates).
type syncShard struct {
	mu    sync.Mutex
	tab   atomic.Pointer[syncSlots]
	spare *syncSlots // the table the last rebuild replaced, cleared, under mu
	n     int        // keys in tab, under mu
	_     [64 - unsafe.Sizeof(sync.Mutex{}) - 24]byte
}

type syncSlots = probeTable[syncVar]

// syncIndex returns the first slot of s to probe for the address hashed
// to h.
func syncIndex(s *syncSlots, h uintptr) uintptr { return (h >> 24) & s.mask }

type syncTable struct {
	shards [256]syncShard
}

var syncs syncTable

// alive reports whether sv describes an object that is still alive. It
// is exact for any caller; the sync table's rebuilds and sweeps ask it.
func (sv *syncVar) alive() bool { return !sv.heap || sv.live.Value() != nil }

// describes reports whether sv describes the object at sv.addr, for a
// caller that holds a pointer to that object, as every lookup does
// (lookupSync): alive's answer without weak.Pointer.Value's cost
// (weakhandle.go).
func (sv *syncVar) describes() bool { return !sv.heap || weakHandleSet(&sv.live) }

// lookupSync returns the syncVar for the object at p, creating it if
// needed, or nil for objects on the current goroutine's stack, which no
// other goroutine can synchronize with, and when t is nil (the gate is
// closed).
//
// The object is passed as a pointer, never as a bare address, all the way
// from the hook the program called: a new syncVar turns it into a weak
// pointer and asks the collector whether it is a heap object, which is
// only sound while the object is alive, and only a pointer keeps it so. A
// hook that passed a uintptr let the object die under it: after
// wg.Wait(), the program's last use of a WaitGroup, the lookup that
// follows the wait ran on a freed object, and the pointer made from its
// address was the "found pointer to free object" that killed fasthttp's
// tests (TestSyncLookupKeepsObjectAlive).
func lookupSync(t *thread, p unsafe.Pointer) *syncVar {
	if staticSync || t == nil || p == nil {
		return nil
	}
	addr, local := t.address(p)
	if local {
		return nil // the goroutine's own stack (stack.go)
	}
	h := addr * 0x9e3779b97f4a7c15
	sh := &syncs.shards[h>>(64-8)]
	if s := sh.tab.Load(); s != nil {
		for i := syncIndex(s, h); ; i = (i + 1) & s.mask {
			k := s.keys[i].Load()
			if k == addr {
				if sv := s.vals[i].Load(); sv != nil && sv.addr == addr && sv.describes() {
					return sv
				}
				break
			}
			if k == 0 {
				break
			}
		}
	}
	return sh.lookupLocked(p, h, t.g != 0)
}

// lookupLocked is lookupSync's slow path, under the shard's lock: it
// makes the syncVar of a new object. offStack says that p is known not
// to lie on the running goroutine's stack: lookupSync read the stack's
// bounds.
func (sh *syncShard) lookupLocked(p unsafe.Pointer, h uintptr, offStack bool) *syncVar {
	addr := uintptr(p)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s := sh.tab.Load()
	if s == nil || 2*(sh.n+1) > len(s.keys) {
		s = sh.rebuild(s, tableSize(2*(sh.n+1)))
	}
	i := syncIndex(s, h)
	for ; ; i = (i + 1) & s.mask {
		k := s.keys[i].Load()
		if k == addr {
			sv := s.vals[i].Load()
			if sv.describes() {
				return sv
			}
			sv.retire()
			break // the object died; this is a new one at its address
		}
		if k == 0 {
			break
		}
	}
	if testHookNewSyncVar != nil {
		testHookNewSyncVar()
	}
	probe := goObject
	if offStack {
		probe = goObjectOffStack
	}
	sv := &syncVar{addr: addr, heap: probe(p)}
	if sv.heap {
		sv.live = weak.Make((*byte)(p))
	}
	// The value before the key, so that a reader that finds the key
	// finds its syncVar.
	s.vals[i].Store(sv)
	if s.keys[i].Load() == 0 {
		s.keys[i].Store(addr)
		sh.n++
	}
	return sv
}

// testHookNewSyncVar, if set, runs in lookupLocked before a new object's
// syncVar is made, for TestSyncLookupKeepsObjectAlive.
var testHookNewSyncVar func()

// tableSize returns the length of a table for n keys: a power of two, at
// least 16, that keeps it at most half full.
func tableSize(n int) int {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return size
}

// rebuild publishes a table of size slots holding the live syncVars of s;
// the shard's lock must be held.
func (sh *syncShard) rebuild(s *syncSlots, size int) *syncSlots {
	ns := sh.spare
	sh.spare = nil
	if ns == nil || len(ns.keys) != size {
		ns = newProbeTable[syncVar](size)
	}
	n := 0
	if s != nil {
		for i := range s.keys {
			k := s.keys[i].Load()
			sv := s.vals[i].Load()
			if k == 0 {
				continue
			}
			if !sv.alive() {
				sv.retire()
				continue
			}
			h := k * 0x9e3779b97f4a7c15
			for j := syncIndex(ns, h); ; j = (j + 1) & ns.mask {
				if ns.keys[j].Load() == 0 {
					ns.vals[j].Store(sv)
					ns.keys[j].Store(k)
					n++
					break
				}
			}
		}
	}
	sh.n = n
	sh.tab.Store(ns)
	if s != nil && len(s.keys) == size {
		// Cleared now, so that it holds no dead syncVar alive; readers
		// that still probe it find no key and retry under the lock.
		s.clear()
		sh.spare = s
	} else {
		// A table of a new size gets its spare now, from the
		// synchronization operation that grew it, rather than from the
		// sweeper after some later GC cycle, at a time unrelated to
		// what the program is doing.
		sh.spare = newProbeTable[syncVar](size)
	}
	return ns
}

// keptSlots is the table size below which the sweeper does not shrink a
// shard's table. A shrink allocates two tables, and testing.AllocsPerRun
// counts every allocation of the process: after a burst of short-lived
// synchronization objects, each GC cycle shrank hundreds of shards' tables
// by one step, and fasthttp's TestRequestHeaderFoldedRawHeadersAllocations
// counted those allocations (TestSyncSweepAllocates). A table this size
// and its spare take 32 KiB, 8 MiB for every shard.
const keptSlots = 1024

// sweep forgets the synchronization objects that died, and the channel
// histories that have expired now that gen GC cycles have completed
// (cell.expired).
func (s *syncTable) sweep(gen uint32) {
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		if t := sh.tab.Load(); t != nil {
			live, dead := 0, false
			for j := range t.keys {
				if t.keys[j].Load() == 0 {
					continue
				}
				if sv := t.vals[j].Load(); sv.alive() {
					live++
					sv.forgetHistory(func(c *cell) bool { return c.expired(gen) })
				} else {
					dead = true
				}
			}
			if dead {
				// The same size, so that the spare table fits the
				// next rebuild, unless the table is large and
				// mostly empty.
				size := len(t.keys)
				if n := max(tableSize(2*live), keptSlots); 4*n <= size {
					size = n
				}
				sh.rebuild(t, size)
			}
		}
		sh.mu.Unlock()
	}
}

// forgetHistory drops the channel histories for which drop reports true
// (expire.go).
func (s *syncTable) forgetHistory(drop func(*cell) bool) {
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		if t := sh.tab.Load(); t != nil {
			for j := range t.keys {
				if t.keys[j].Load() != 0 {
					t.vals[j].Load().forgetHistory(drop)
				}
			}
		}
		sh.mu.Unlock()
	}
}

// count returns the number of synchronization objects tracked.
func (s *syncTable) count() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += sh.n
		sh.mu.Unlock()
	}
	return n
}

// release stores t's clock into sv (Cm ← Ct) and ticks t: the release of
// an exclusive lock, which every later acquirer is ordered after.
func (sv *syncVar) release(t *thread) {
	if staticSync {
		return // syncer made the operation's onSync
	}
	if sv == nil || t == nil {
		return
	}
	if !sv.rel.holds(t) {
		sv.mu.Lock()
		sv.rel.store(t)
		sv.mu.Unlock()
	}
	t.tick()
}

// releaseMerge joins t's clock into sv (Cm ← Cm ⊔ Ct) and ticks t: a
// release that does not supersede the releases before it.
func (sv *syncVar) releaseMerge(t *thread) { sv.mergeRelease(t, false, false) }

// releaseAtomic is releaseMerge for an atomic store or read-modify-write,
// which copies t's clock where a channel's or a WaitGroup's release
// shares it (syncClock.merge).
func (sv *syncVar) releaseAtomic(t *thread) { sv.mergeRelease(t, false, true) }

// mergeRelease is releaseMerge, releaseAtomic and releaseReverse: it
// joins t's clock into sv's second clock if reverse is set and into its
// first otherwise, copies being syncClock.merge's, and ticks t.
func (sv *syncVar) mergeRelease(t *thread, reverse, copies bool) {
	if staticSync {
		return // syncer made the operation's onSync
	}
	if sv == nil || t == nil {
		return
	}
	s := &sv.rel
	if reverse {
		s = &sv.rrel
	}
	if !s.covers(t) {
		sv.mu.Lock()
		s.merge(t, copies)
		sv.mu.Unlock()
	}
	t.tick()
}

// acquire joins sv's clock into t (Ct ← Ct ⊔ Cm).
func (sv *syncVar) acquire(t *thread) {
	if staticSync {
		return // syncer made the operation's onSync
	}
	if sv == nil || t == nil {
		return
	}
	if sv.rel.coveredBy(t) {
		t.acquired()
		return
	}
	sv.mu.Lock()
	t.acquire(&sv.rel)
	sv.mu.Unlock()
}

// releaseReverse joins t's clock into sv's second clock and ticks t. A
// channel's receive shares t's clock where it can, as releaseMerge does;
// an RUnlock copies it, as releaseAtomic does, since the reader goes on
// to acquire: sharing froze its vclock, which it then cloned at its next
// atomic add or RLock after a writer (fastcache's bucket.Get, an RLock,
// its statistics counters' adds and an RUnlock).
func (sv *syncVar) releaseReverse(t *thread, copies bool) { sv.mergeRelease(t, true, copies) }

// acquireReverse joins sv's second clock into t.
func (sv *syncVar) acquireReverse(t *thread) {
	if staticSync {
		return // syncer made the operation's onSync
	}
	if sv == nil || t == nil {
		return
	}
	if sv.rrel.coveredBy(t) {
		t.acquired()
		return
	}
	sv.mu.Lock()
	t.acquire(&sv.rrel)
	sv.mu.Unlock()
}

// acquireAt, releaseAt, releaseMergeAt and lockAt are
// the recording halves of the wrappers, called when syncHot is true.

//go:noinline
func acquireAt(p unsafe.Pointer) {
	t := syncer()
	lookupSync(t, p).acquire(t)
}

//go:noinline
func releaseAt(p unsafe.Pointer) {
	t := syncer()
	lookupSync(t, p).release(t)
}

//go:noinline
func releaseMergeAt(p unsafe.Pointer) {
	t := syncer()
	lookupSync(t, p).releaseMerge(t)
}

// lockAt is the acquire of a write lock (acquireLock).
//
//go:noinline
func lockAt(p unsafe.Pointer) {
	t := syncer()
	lookupSync(t, p).acquireLock(t)
}

// acquireLock is the acquire of a write lock: t is ordered after the last
// Unlock and every RUnlock before it.
func (sv *syncVar) acquireLock(t *thread) {
	sv.acquire(t)
	sv.acquireReverse(t)
}

// Acquire orders the current goroutine after every Release and
// ReleaseMerge on p so far. With Release it models synchronization in
// code that racegen does not instrument.
func Acquire(p unsafe.Pointer) {
	if syncHot() {
		acquireAt(p)
	}
}

// Release makes p carry the current goroutine's clock, replacing what
// earlier releases left: use it for exclusive handoffs such as unlocking.
func Release(p unsafe.Pointer) {
	if syncHot() {
		releaseAt(p)
	}
}

// ReleaseMerge adds the current goroutine's clock to what p carries:
// use it where several goroutines release to one acquirer.
func ReleaseMerge(p unsafe.Pointer) {
	if syncHot() {
		releaseMergeAt(p)
	}
}

// A syncRef carries a synchronization object from the hook before an
// operation to the hook after it: a pointer to the object, which keeps it
// alive for the hook after, and its syncVar and the state of the
// goroutine making the operation, both nil if the gate was closed before
// the operation. The hook after runs on the same goroutine, and need not
// look it up again (syncer).
type syncRef struct {
	p  unsafe.Pointer
	sv *syncVar
	t  *thread
}

// syncer is syncer for the half of the operation that follows r, given
// the state the first half found, if any (a first half made with the gate
// closed found none, and a gate closed since means that nothing need be
// recorded).
func (r syncRef) syncer() *thread { return syncerOf(r.t) }

// object returns the syncVar for the half of the operation that follows
// it, looking it up if the gate was closed before the operation but may
// have opened while it ran or blocked: an acquire made while the gate is
// open must not be skipped (see gate).
func (r syncRef) object(t *thread) *syncVar {
	if r.sv == nil {
		return lookupSync(t, r.p)
	}
	return r.sv
}
