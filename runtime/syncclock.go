package runtime

import "sync/atomic"

// A syncClock is the vector clock carried by a synchronization object: the
// shared vclock vc joined with the single epoch e. Keeping the releaser's
// own entry in e, outside vc, is what lets a release share the releaser's
// vclock instead of copying it: the releaser's own clock lives in its
// thread, so its vclock does not change when it ticks.
type syncClock struct {
	vc *vclock
	e  epoch
	// merged is the last frozen vclock merged into vc, known to be
	// covered by it: vc only grows until the next store, and a frozen
	// vclock never changes. Merging it again can skip the comparison,
	// which costs a pass over every slot.
	merged *vclock

	// The version epoch (version.go): the value of s is covered by
	// version vver of slot vtid's clock (vver 0: no such version is
	// known), and equal to it if vtid has vExact set. has lists versions
	// of clocks that s is known to cover: a merge by a thread at one of
	// them would leave s as it is. They are written under the
	// syncVar's lock, inside a sequence lock (vseq is odd while they
	// change), so that acquires and releases can read them without it.
	vseq    atomic.Uint32
	vtid    atomic.Uint32
	vver    atomic.Uint64
	hasTid  [2]atomic.Uint32
	hasVer  [2]atomic.Uint64
	nextHas uint8
}

const vExact = 1 << 31

// setVersion sets s's version epoch; the syncVar's lock must be held, and
// the sequence lock (begin).
func (s *syncClock) setVersion(tid uint32, ver uint64, exact bool) {
	if exact && ver != 0 {
		tid |= vExact
	}
	s.vtid.Store(tid)
	s.vver.Store(ver)
}

// addHas records that s covers t's clock as it is now; the syncVar's
// lock must be held, and the sequence lock.
func (s *syncClock) addHas(t *thread) {
	tid, ver := t.vepoch()
	if ver == 0 {
		return
	}
	for i := range s.hasVer {
		if s.hasVer[i].Load() == ver && s.hasTid[i].Load() == tid {
			return
		}
	}
	i := s.nextHas % uint8(len(s.hasVer))
	s.nextHas++
	s.hasTid[i].Store(tid)
	s.hasVer[i].Store(ver)
}

// begin and end bracket changes of the version fields.
func (s *syncClock) begin() { s.vseq.Add(1) }
func (s *syncClock) end()   { s.vseq.Add(1) }

// version returns s's version epoch; the syncVar's lock must be held.
func (s *syncClock) version() (tid uint32, ver uint64, exact bool) {
	x := s.vtid.Load()
	return x &^ vExact, s.vver.Load(), x&vExact != 0
}

// coveredBy reports, without the lock, whether t's clock is known to
// cover s: an acquire of s by t has nothing to join.
func (s *syncClock) coveredBy(t *thread) bool {
	q := s.vseq.Load()
	if q&1 != 0 {
		return false
	}
	tid := s.vtid.Load() &^ vExact
	ver := s.vver.Load()
	return s.vseq.Load() == q && t.knows(tid, ver)
}

// holds reports, without the lock, whether s is exactly t's clock as it
// is now: a release by t, store or merge, would leave s as it is. Outside
// sampling periods, where a release does not tick, this is every release
// but the first of a goroutine that releases an object repeatedly.
func (s *syncClock) holds(t *thread) bool {
	if t.ver == 0 {
		return false
	}
	q := s.vseq.Load()
	if q&1 != 0 {
		return false
	}
	x := s.vtid.Load()
	ver := s.vver.Load()
	return s.vseq.Load() == q && x == t.tid|vExact && ver == t.ver
}

// covers reports, without the lock, whether s is known to cover t's
// clock as it is now: a merge by t would leave s as it is.
func (s *syncClock) covers(t *thread) bool {
	if t.ver == 0 {
		return false
	}
	q := s.vseq.Load()
	if q&1 != 0 {
		return false
	}
	found := false
	for i := range s.hasVer {
		if s.hasVer[i].Load() == t.ver && s.hasTid[i].Load() == t.tid {
			found = true
		}
	}
	return found && s.vseq.Load() == q
}

// get returns the entry of slot t.
func (s *syncClock) get(t uint32) uint64 {
	c := s.vc.get(t)
	if s.e != 0 && s.e.tid() == t && s.e.clock() > c {
		c = s.e.clock()
	}
	return c
}

// store sets s to t's current clock (Cm ← Ct), sharing t's vclock or
// copying it (copies).
func (s *syncClock) store(t *thread) {
	s.begin()
	s.replace(t, s.copies(t))
	for i := range s.hasVer {
		s.hasVer[i].Store(0)
	}
	s.addHas(t)
	s.end()
}

// replace sets s to t's current clock, a copy in s's own vclock if
// private is set; the sequence lock must be held.
func (s *syncClock) replace(t *thread, private bool) {
	if private {
		if s.vc.frozen.Load() {
			s.vc = new(vclock)
		}
		// t's vclock is private here, so it holds t's inherited
		// epoch (thread.inh).
		s.vc.copyFrom(t.vc)
		s.merged = nil
	} else {
		t.settle()
		s.vc = t.share()
		s.merged = s.vc
	}
	s.e = t.epoch()
	tid, ver := t.vepoch()
	s.setVersion(tid, ver, true)
}

// copies reports whether a store by t into s (the release of a mutex)
// copies t's vclock into a vclock of s's own instead of sharing it
// (Pacer's Algorithm 9): in a sampling period, if t's vclock is private
// and s has been released into before.
//
// A shared vclock is frozen, and the releaser clones it at its next
// acquire that changes it: in a program whose goroutines take turns at
// mutexes, that is an allocation at every Lock. shardmap's benchmark at
// rate 1 allocated 48.8 MB in 129,527 vclocks per run (0.3 MB and 432
// objects uninstrumented), and ran 351 GC cycles to the uninstrumented
// build's 3. A copy into a vclock the object owns, reused from one
// release to the next, costs a pass over the slots, as the release of go
// build -race's detector does. The first release of an object shares,
// so that objects released once, a thousand mutexes locked and unlocked
// as they are made say, hold one vclock between them, not a copy each.
// Outside sampling periods clocks stand still and sharing is free: an
// acquire of an unchanged clock joins nothing, and a release of one
// stores nothing (holds). A vclock already frozen, by a go statement or
// a release outside sampling, costs nothing more to share again.
//
// Merges by channels and WaitGroups share (those of atomic operations and
// RUnlock copy; see merge): a goroutine that sends one value after
// another into a channel released a copy of its clock at each, and its
// receivers, which had joined the shared vclock once and remembered it
// (thread.covered), compared every copy with their own; pipeline's
// benchmark at rate 1 ran 2.5% more instructions when merges copied too.
func (s *syncClock) copies(t *thread) bool {
	return s.vc != nil && sampling.Load() != 0 && t.vc != nil && !t.vc.frozen.Load()
}

// merge joins t's current clock into s (Cm ← Cm ⊔ Ct). Channels,
// WaitGroups and atomics, which many goroutines release into, use it.
//
// Where s is covered by t's clock, s takes t's clock as it is: shared,
// as Pacer's Algorithm 16 has it, or, if copies is set, copied into a
// vclock of s's own where store would copy (syncClock.copies). Atomics
// copy: an atomic read-modify-write acquires right after it releases,
// and a counter that goroutines add to in turn made each add share the
// adder's vclock, which froze it, and the next add by another goroutine
// clone the shared one to join into it, and the adder clone its own at
// its next acquire that changed it: one or two allocations an add
// (bench/ops's AtomicAdd on two CPUs; TestAtomicTurnsAllocate). An
// RUnlock copies too (syncVar.releaseReverse). fastcache's bucket.Get,
// an RLock, adds to statistics counters and an RUnlock, made 41% of the
// detector's allocations at rate 1 in clones of vclocks: its
// BenchmarkCacheGet allocated 85-92 thousand objects an operation before
// and 24-34 thousand after, with its wall time within the noise.
func (s *syncClock) merge(t *thread, copies bool) {
	s.begin()
	defer s.end()
	if s.vc == nil && s.e == 0 || t.knows(s.vtid.Load()&^vExact, s.vver.Load()) {
		// Cm ⊑ Ct, so Cm ⊔ Ct = Ct: t's clock, exact again for later
		// acquirers. The clocks s covered, it still covers. A copy is
		// made where store would make one, and from a shared vclock
		// too, which t then clones once, here: a goroutine that
		// started with its creator's vclock, as RunParallel's do,
		// would otherwise share a vclock of its own at each release
		// and clone it at the acquire after.
		private := copies && s.vc != nil && sampling.Load() != 0
		if private {
			t.own(0)
		}
		s.replace(t, private)
		s.addHas(t)
		return
	}
	s.setVersion(0, 0, false)
	s.addHas(t) // once joined below
	// t's vclock without its inherited epoch, which is joined apart
	// below: a goroutine that ends by releasing into a WaitGroup or a
	// channel need not copy the vclock it shares with its creator. A
	// private vclock stays private: joining it into s does not need it
	// frozen, and freezing it, so that s could remember it as merged,
	// made t clone it at its next acquire that changed it.
	tv := t.vc
	if tv != nil && s.vc != tv && s.merged != tv {
		// A private vclock takes the join in place, in one pass (see
		// thread.acquire); a shared one is cloned only if it changes.
		switch {
		case s.vc != nil && !s.vc.frozen.Load():
			s.vc.join(tv)
		case !tv.leq(s.vc):
			s.vc = s.vc.clone(len(tv.c))
			s.vc.join(tv)
		}
	}
	s.merged = nil
	if tv != nil && tv.frozen.Load() {
		s.merged = tv // a frozen vclock never changes: s covers it for good
	}
	// s.e leaves s for its vclock unless t's own epoch covers it, which
	// it does if it is t's, and need not if a goroutine sharing t's slot
	// released it.
	if s.e != 0 && t.clockOf(s.e.tid()) < s.e.clock() {
		s.raise(s.e)
	}
	s.e = t.epoch()
	if t.inh != 0 {
		s.raise(t.inh)
	}
}

// raise makes s's vclock cover epoch e, cloning it first if it is
// shared and must change.
func (s *syncClock) raise(e epoch) {
	if s.vc.get(e.tid()) >= e.clock() {
		return
	}
	if s.vc == nil || s.vc.frozen.Load() {
		s.vc = s.vc.clone(int(e.tid()) + 1)
	}
	s.vc.set(e.tid(), e.clock())
}
