package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
)

// A thread is the detector's state for one goroutine (the name is
// FastTrack's). Only the goroutine itself writes its fields, except ep,
// which other goroutines read atomically when a lazily registered goroutine
// joins everyone's clocks, and the report fields, which are written before
// the thread is published.
type thread struct {
	tid uint32
	ep  atomic.Uint64 // the current epoch: own slot clock @ tid
	vc  *vclock       // clocks of other slots; vc.get(tid) may be stale

	// inh is the clock of the goroutine's creator at its go statement,
	// if vc, which the creator shares with it, may not hold it: the
	// goroutine's clock is vc ⊔ inh ⊔ its own epoch. A go statement
	// hands the child the creator's vclock as it is and its own epoch
	// beside it (fork), where bringing the creator's own entry up to
	// date in the vclock would cost a copy of every slot's entry at each
	// go statement. inh is zero whenever vc is private (own folds it in)
	// and never of t's own slot (catchUp folds that into ep).
	inh epoch

	period uint32 // the last sampling period t has seen

	// draws are FRESA's random draws for t's accesses (fresaSkip).
	draws draws
	// run is the run of a versioned loop that FRESA kept, whose
	// accesses it draws accordingly (fresaSkipRun).
	run fresaRun

	cache *epochCache // made at t's first sampled access

	// covered holds frozen vclocks known to be covered by vc, which
	// only grows: acquiring one of them again needs no comparison.
	covered [4]*vclock
	nextCov uint8

	// ver and vv are Pacer's versions (section 3.2, Algorithm 11): ver
	// numbers the values t's clock has taken, and vv[u] is a version of
	// slot u's clock that t's clock is known to cover. See version.go.
	ver uint64
	vv  []uint64

	// start is the slot clock t began at: accesses recorded in t's slot
	// at earlier clocks were made by a goroutine that held it before.
	start uint64

	// sharer is set when t shares its slot with the goroutine that
	// holds it (slots.go); sharedAt is then its index in slots.shared.
	sharer   bool
	sharedAt int

	g    uintptr // the runtime g this goroutine runs on
	goid int64

	// For reports.
	parent    int64     // goid of the creator, 0 if unknown
	created   []uintptr // PCs of the go statement, nil if lazy
	createdBy string    // "created by" text from runtime.Stack, if lazy
	// creatorPending is set while the "created by" text is still to be
	// read, by the goroutine itself (creator), which stores it in
	// lateCreatedBy: reading it is a traceback, several microseconds,
	// and most goroutines never appear in a report. A report made by
	// another goroutine (the hardware engine's) may read lateCreatedBy
	// while the goroutine stores it. It is apart from createdBy, which
	// the maker of a finalizer's or cleanup's context passes in: stored
	// through a pointer, that text would cost each context an allocation
	// (TestAloneAllocates).
	creatorPending bool
	lateCreatedBy  atomic.Pointer[string]
	finished       atomic.Bool
	cleanup        bool // the context of a cleanup (see Cleanup)
}

func (t *thread) epoch() epoch { return epoch(t.ep.Load()) }

// clockOf returns t's entry for slot u.
func (t *thread) clockOf(u uint32) uint64 {
	if u == t.tid {
		return t.epoch().clock()
	}
	c := t.vc.get(u)
	if i := t.inh; i != 0 && i.tid() == u {
		c = max(c, i.clock())
	}
	return c
}

// ordered reports whether an access at epoch e happened before t's
// present (FastTrack's e ⊑ Ct). It is e.clock() <= t.clockOf(e.tid()),
// written so that the inliner puts it in its callers, the shadow's
// checks: epochs of one slot compare as their clocks do, so the inherited
// epoch covers e if their tid bits agree and it is at least e. A zero
// inh is of slot 0 at clock 0, below every access.
func (t *thread) ordered(e epoch) bool {
	if e.tid() == t.tid {
		return e <= t.epoch()
	}
	return e.clock() <= t.vc.get(e.tid()) || e <= t.inh && (e^t.inh)&tidMask == 0
}

// tick is called after every release. It counts the synchronization
// operation and, in a sampling period, advances t's own clock
// (Ct[t] ← Ct[t]+1); outside one, time stands still (Pacer's Algorithm
// 10), which keeps vector clocks unchanged and so shareable.
func (t *thread) tick() {
	countSync(t)
	if t.sampling() {
		t.ep.Add(1 << tidBits)
		t.changed()
	}
}

// sampling reports whether a sampling period is on. The first time t
// sees a new sampling period it advances its clock, so that its sampled
// accesses come after everything it released before the period began.
func (t *thread) sampling() bool {
	if sampling.Load() == 0 {
		return false
	}
	if p := samplingPeriod.Load(); t.period != p {
		t.period = p
		t.ep.Add(1 << tidBits)
		t.changed()
	}
	return true
}

// share marks t's vclock as shared and returns it, for a shallow copy.
// t must have no inherited epoch (settle): a shallow copy has room for
// t's own epoch beside the vclock, not for a second.
func (t *thread) share() *vclock {
	if t.vc == nil {
		t.vc = &vclock{}
	}
	if !t.vc.frozen.Load() {
		t.vc.frozen.Store(true)
	}
	return t.vc
}

// settle folds t's inherited epoch, if it has one, into its vclock, which
// it clones for that: the vclock alone then holds t's clock but for t's
// own entry.
func (t *thread) settle() {
	if t.inh != 0 {
		t.vc = t.privateClock(0)
	}
}

// own makes t's vclock private, cloning it if it is shared.
func (t *thread) own(n int) {
	if t.vc == nil || t.vc.frozen.Load() {
		t.vc = t.privateClock(n)
	}
}

// privateClock returns a private clone of t's vclock with room for at
// least n entries and t's inherited epoch folded in, which it clears: an
// inherited epoch is kept apart only while the vclock is shared.
func (t *thread) privateClock(n int) *vclock {
	vc := t.vc.clone(n)
	if t.inh != 0 {
		vc.raise(t.inh)
		t.inh = 0
	}
	return vc
}

// acquired counts an acquire that had nothing to join.
func (t *thread) acquired() {
	countSync(t)
}

// acquire joins a synchronization clock into t (Ct ← Ct ⊔ Cm).
func (t *thread) acquire(s *syncClock) {
	t.acquired()
	vtid, vver, vexact := s.version()
	if t.knows(vtid, vver) {
		// s is covered by a version of a clock that t's clock is
		// known to cover (Pacer's Algorithm 11): nothing to join.
		return
	}
	changed := false
	if s.vc != nil && s.vc != t.vc && !t.covers(s.vc) {
		switch {
		case t.vc != nil && !t.vc.frozen.Load():
			// A private vclock takes the join in place: one pass,
			// where asking leq first would make two when it is not.
			if t.vc.join(s.vc) {
				changed = true
			}
		case !s.vc.leq(t.vc):
			t.own(len(s.vc.c))
			t.vc.join(s.vc)
			changed = true
		}
		if s.vc.frozen.Load() {
			t.covered[t.nextCov%uint8(len(t.covered))] = s.vc
			t.nextCov++
		}
	}
	if e := s.e; e != 0 && t.clockOf(e.tid()) < e.clock() {
		if e.tid() == t.tid {
			// Released by another goroutine sharing t's slot.
			t.ep.Store(uint64(e))
		} else {
			t.own(int(e.tid()) + 1)
			t.vc.set(e.tid(), e.clock())
		}
		changed = true
	}
	if t.catchUp() {
		changed = true
	}
	if changed {
		t.changed()
	}
	if vexact {
		// s equals version vver of slot vtid's clock, which t's clock
		// now covers.
		t.learn(vtid, vver)
	} else if vver == 0 {
		// s is covered by t's clock as it is now: a later merge by t
		// can replace s by its own clock (syncClock.merge).
		tid, ver := t.vepoch()
		s.begin()
		s.setVersion(tid, ver, false)
		s.end()
	}
}

// catchUp raises t's own clock to the entry for t's slot in its vclock
// if that is higher, which happens only when another goroutine shares the
// slot (slots.go) and t has learned of its clock: the accesses it made at
// that clock must look ordered before t's. It reports whether t's clock
// changed.
func (t *thread) catchUp() bool {
	c := t.vc.get(t.tid)
	if i := t.inh; i != 0 && i.tid() == t.tid {
		// The creator shares t's slot: t's own clock covers what it
		// inherits once it is raised to it.
		c = max(c, i.clock())
		t.inh = 0
	}
	if c > t.epoch().clock() {
		t.ep.Store(uint64(mkEpoch(t.tid, c)))
		return true
	}
	return false
}

// covers reports whether v is one of the frozen vclocks t has joined.
func (t *thread) covers(v *vclock) bool {
	for _, c := range t.covered {
		if c == v {
			return true
		}
	}
	return false
}

// retire lets go of the state that only t's goroutine uses, once that
// goroutine has ended: its vector clock, which can have an entry for
// every slot, its versions, and its epoch cache, which the next goroutine
// to need one takes (spareCaches). The slot table keeps t itself for
// reports until its slot is reused, or for good if it never is.
func (t *thread) retire() {
	if c := t.cache; c != nil {
		spareCaches.Put(c)
	}
	t.vc, t.cache, t.vv, t.inh = nil, nil, nil, 0
}

// freshMark is the gtable entry of a g running a goroutine forked while
// the gate was closed that has not needed a thread yet (startFresh), and
// the thread of freshGoroutine, which that go statement hands on. It is
// never a goroutine's thread: current and start replace it by one, and
// GoEnd clears it.
var freshMark = &thread{tid: ^uint32(0)}

// newThread allocates a slot and returns a thread for it.
func newThread() *thread {
	t := new(thread)
	t.takeSlot()
	return t
}

// takeSlot gives t a slot and starts its clock there.
func (t *thread) takeSlot() {
	tid, clock, gen, shared := allocTid()
	t.sharer = shared
	t.tid = tid
	t.draws.seed()
	t.ep.Store(uint64(mkEpoch(tid, clock)))
	t.start = clock
	t.ver = 0
	if gen != 0 && gen < maxVerGen {
		t.ver = uint64(gen)<<verCountBits | 1
	}
}

var gtab gtable

// current returns the detector state of the running goroutine, creating it
// if the goroutine was started by code racegen did not instrument. It
// returns nil on a system stack (a goroutine id of 0: an M's g0 or signal
// stack), where the Go runtime runs timers' functions and with them
// instrumented code (time.Now, under time.sendTime): there the detector
// must neither allocate nor lock, and has nothing to record, since no
// goroutine of the program runs there.
func current() *thread {
	gp := getg()
	if gp == 0 {
		return currentSlow()
	}
	t := gtab.lookup(gp)
	if t == freshMark {
		return start(freshGoroutine, gp)
	}
	if t != nil && t.runsOn(gp) {
		return t
	}
	if t != nil && t.finished.CompareAndSwap(false, true) {
		// gp runs another goroutine now, so t's goroutine has ended
		// without GoEnd: it was registered lazily. Reclaim its slot as
		// GoEnd would, or every goroutine started by uninstrumented
		// code would hold a slot, and every later lazy registration
		// would cost more, for good.
		freeTid(t)
		t.retire()
	}
	calibrateOnce.Do(calibrateGoid)
	goid := readGoid(gp)
	if goid == 0 && goidOff != 0 {
		return nil // a system stack
	}
	if t := spawned(gp); t != nil {
		return t
	}
	return lazyThread(gp, goid)
}

// runsOn reports whether t's goroutine is the one running on gp: the Go
// runtime reuses g structs, and a g that runs another goroutine has
// another id.
func (t *thread) runsOn(gp uintptr) bool { return t.goid == readGoid(gp) }

// lazyThread registers a goroutine that the detector sees for the first
// time: one started by uninstrumented code (the testing package, net/http,
// a timer), or the main goroutine. Its creation edge was not observed, so
// its clock starts as the join of every slot's current clock: everything
// that happened before its first hook is treated as ordered before it.
// That may hide races with it, but cannot produce a false report.
func lazyThread(gp uintptr, goid int64) *thread { return lazyContext(gp, goid, false, "") }

// lazyContext is lazyThread. With cleanup, the context runs a cleanup
// (see Cleanup): it joins every slot's clock but those of other
// cleanups. createdBy is the goroutine's creatorText, or "" to read it
// when a report may need it (creator).
func lazyContext(gp uintptr, goid int64, cleanup bool, createdBy string) *thread {
	calibrateOnce.Do(calibrateGoid)
	if goid == 0 {
		goid = readGoid(gp)
	}
	if goid == 0 {
		goid = stackGoid()
	}
	t := &thread{g: gp, goid: goid, createdBy: createdBy, cleanup: cleanup, creatorPending: createdBy == ""}
	// In a static build only an identity for watchpoints and reports:
	// no slot, no clock.
	if !staticSync {
		t.takeSlot()
		t.vc = everyClock(cleanup, spareAloneClock.Swap(nil))
		t.catchUp()
		t.ep.Add(1 << tidBits) // start past everything just joined
		t.changed()
		publish(t)
	}
	if gp != 0 {
		gtab.store(gp, t)
	}
	return t
}

// currentSlow identifies goroutines by id parsed from runtime.Stack on
// architectures without a getg stub.
var byGoid sync.Map // int64 -> *thread

func currentSlow() *thread {
	id := stackGoid()
	if v, ok := byGoid.Load(id); ok {
		return v.(*thread)
	}
	if t := spawned(0); t != nil {
		return t
	}
	t := lazyThread(0, id)
	byGoid.Store(id, t)
	return t
}

// creator reads the "created by" lines of t's goroutine if they are still
// to be read: before t records an access a later report may name as the
// earlier one (in a sampling period, or when it arms a watchpoint), and
// before a report names t's current access. It runs on t's goroutine,
// whose traceback it reads.
func (t *thread) creator() {
	if t.creatorPending {
		s := creatorText()
		t.lateCreatedBy.Store(&s)
		t.creatorPending = false
	}
}

// creatorLines returns the "created by" text of t's goroutine, or "".
func (t *thread) creatorLines() string {
	if t.createdBy != "" {
		return t.createdBy
	}
	if s := t.lateCreatedBy.Load(); s != nil {
		return *s
	}
	return ""
}

// creatorText returns the "created by" lines of the current goroutine's
// traceback, which the runtime keeps even for goroutines started by
// uninstrumented code.
func creatorText() string {
	var buf [2048]byte
	b := buf[:goruntime.Stack(buf[:], false)]
	s := string(b)
	const marker = "\ncreated by "
	for i := len(s) - len(marker); i >= 0; i-- {
		if s[i:i+len(marker)] == marker {
			return s[i+1:]
		}
	}
	return ""
}
