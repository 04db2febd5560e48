package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// The watchpoint engine. There are numWatch watchpoints, as there are four
// debug address registers on amd64; the software engine keeps the same
// number so that both give the same verdicts. A watchpoint is armed by a
// sampled access (the first access, e1) and records who made it and the
// owner's scalar clock; it is freed when its time limit passes, when it
// caught a race (CRSampler clears a breakpoint that reported), or, in a
// collide build, when its owner stops waiting.
//
// Policy when all watchpoints are busy: the new sample is dropped, as in
// CRSampler; so is a sample of bytes that an armed watchpoint already
// covers, whose watchpoint is still waiting for its own second access.

const numWatch = 4

// A watchRec is one arming of a watchpoint. It is immutable once
// published, except for the atomics, so that checks read it without locks.
type watchRec struct {
	lo, hi uintptr // the watched bytes [lo, hi)
	write  bool    // e1 wrote: reads and writes conflict; else only writes
	owner  *thread
	g      uintptr // the g the owner ran on
	site   uint64
	gen    uint32 // GC cycles completed before e1 (lower bound)
	global bool   // the site accesses a package-level variable
	// stack is e1's call stack, for the report: taken when the
	// watchpoint is armed, which the arming budget keeps rare (a
	// microsecond or two against the hundreds an arming's ioctls take).
	stack []uintptr

	armedAt, deadline int64 // nanotime

	// changedAt is the nanotime of the owner's first synchronization
	// operation after e1, 0 until then: the owner's scalar clock still
	// has its value at e1 exactly while changedAt is 0, and a second
	// access made before changedAt was made while it had.
	changedAt atomic.Int64

	// wait is set in a collide build: the owner waits while the
	// watchpoint is armed, and frees it when the wait ends.
	wait bool

	// done is closed at the first race the watchpoint catches, when it
	// is freed, or, if the owner waits, at its time limit: it ends the
	// owner's wait.
	done chan struct{}
	hit  atomic.Bool

	selfHits atomic.Int32 // samples of the owner's own accesses (hardware)

	// parked is set once the owner, at its first synchronization after
	// e1, has disarmed the watchpoint's events (spend): the record
	// stays, for the samples taken before, until the engine frees it.
	parked atomic.Bool
	// unarmed is set once the watchpoint has left watchArmed and the
	// gate (unarm).
	unarmed atomic.Bool
}

type watchSlot struct {
	busy atomic.Bool // held while the slot is being armed or freed
	rec  atomic.Pointer[watchRec]
	// restUntil, when not 0, is the time limit of the slot's last
	// hardware watchpoint, freed before it: the slot arms nothing
	// until then (see freeWatch).
	restUntil atomic.Int64
	_         [40]byte
}

var (
	watchSlots [numWatch]watchSlot
	// watchArmed has bit i set while slot i watches: from the moment its
	// record is published and, on hardware, every event is aimed at the
	// bytes, until it is freed. It is the one word that unsampled
	// accesses (CR, CW) and synchronization read.
	watchArmed atomic.Uint32
	watchLimit atomic.Int64 // time limit in ns
	collide    = collideBuild
)

// watchStats count what the engine did, for tests and docs.
var watchStats struct {
	armed, hits, races atomic.Uint64
	dropped            stripedCount  // a hot sampled site drops at nearly every execution
	retired            atomic.Uint64 // slots retired by releaseSlot
}

// hwArmPause, when a test sets it, runs while a hardware watchpoint is
// being armed, before its events are aimed at the bytes: it stands for
// the owner being preempted in the middle of arming.
var hwArmPause func()

// An engine makes watchpoints fire. The software engine does nothing of
// its own: the records are the watchpoints, and CR and CW check them.
type engine struct {
	soft bool
	hw   *hwWatch // nil for the software engine
	why  string   // why hardware watchpoints are not used
}

var (
	curEngine atomic.Pointer[engine]
	watchOnce sync.Once
	wakeSoft  = make(chan struct{}, 1)
)

// startWatch starts the watchpoint engine: hardware watchpoints when the
// system allows them and the options do not ask for software ones.
func startWatch() { watchOnce.Do(initWatch) }

func initWatch() {
	watchLimit.Store(opts.watch)
	e := &engine{soft: true}
	if opts.swWatch {
		e.why = "watchpoints=sw"
	} else if hw, err := openHW(); err != nil {
		e.why = err.Error()
		if staticSync {
			printStderr("racegen: hardware watchpoints unavailable (" + err.Error() + "); using software watchpoints\n")
		}
	} else {
		e = &engine{hw: hw}
		watchLoopHW = hw
		go racegenWatchLoop()
	}
	setEngine(e)
	go racegenReaper()
}

// setEngine makes e the engine.
func setEngine(e *engine) {
	armedMu.Lock()
	defer armedMu.Unlock()
	curEngine.Store(e)
	updateHWFull()
}

// hwFull is set while every slot watches on the hardware engine, when a
// sample is dropped whatever its bytes: SR and SW test it inline
// (dropsAtOnce). It is derived from watchArmed and the engine under
// armedMu, which every change of either takes, so that it is never left
// set with a slot free: arming and freeing are rare next to samples.
var (
	armedMu sync.Mutex
	// hwFull is read by every execution of a sampled site: it has a
	// cache line to itself, away from armedMu and the counters.
	hwFull struct {
		_ [64]byte
		atomic.Bool
		_ [64]byte
	}
)

// setArmed sets or clears slot i's bit in watchArmed.
func setArmed(i int, on bool) {
	armedMu.Lock()
	defer armedMu.Unlock()
	if on {
		watchArmed.Or(1 << i)
	} else {
		watchArmed.And(^uint32(1 << i))
	}
	updateHWFull()
}

// updateHWFull derives hwFull; the caller holds armedMu. A resting slot
// counts as taken.
func updateHWFull() {
	e := curEngine.Load()
	hwFull.Store(allTaken() && e != nil && !e.soft)
}

// allTaken reports whether every slot watches or rests.
func allTaken() bool {
	m := watchArmed.Load()
	for i := range watchSlots {
		if m&(1<<i) == 0 && watchSlots[i].restUntil.Load() == 0 {
			return false
		}
	}
	return true
}

// watcher returns the engine, starting it on first use.
func watcher() *engine {
	if e := curEngine.Load(); e != nil {
		return e
	}
	startWatch()
	return curEngine.Load()
}

// watchRange returns the largest naturally aligned 1, 2, 4 or 8 bytes
// inside [addr, addr+size): what a debug register can watch. Watching a
// subset of the access's bytes never reports an access that does not
// overlap it; an access to the other bytes is missed.
func watchRange(addr, size uintptr) (lo, n uintptr) {
	for n = 8; n > 0; n >>= 1 {
		if n > size {
			continue
		}
		a := (addr + n - 1) &^ (n - 1)
		if a+n <= addr+size {
			return a, n
		}
	}
	return 0, 0
}

// sample is the first access of a potential race: it arms a watchpoint
// on the bytes at p (CRSampler's sample, Algorithm 3 lines 10-20), or,
// in a collide build, arms it and waits (DataCollider, Algorithm 2).
func sample(p unsafe.Pointer, size uintptr, site uint64, write bool) {
	if onOwnStack(p) {
		// A sampled site may access its goroutine's own stack: memory
		// the instrumenter could not prove local, which the compiler
		// kept on the stack all the same. Such a site never arms, and
		// it runs its hook at every execution with the slots free:
		// fastcache's benchmark increments a key's first byte in its
		// inner loop, and its build at -seed=1 sampled that: 1.4
		// million samples a run, each dropped only after the goroutine
		// lookup (t.address, below).
		return
	}
	e := watcher()
	if !e.soft && cannotArm(uintptr(p), size, site) {
		// The hardware sees this access as a second access without
		// help, so a sample that cannot arm has nothing else to do.
		watchStats.dropped.addByG(1)
		return
	}
	t := current()
	if t == nil {
		return // a system stack
	}
	addr, local := t.address(p)
	if local {
		return // the goroutine's own stack (stack.go)
	}
	if e.soft && watchArmed.Load() != 0 {
		// A sampled access is also a second access to the watchpoints
		// armed before it; the hardware sees it without help.
		softCheck(t, addr, size, site, write)
	}
	lo, n := watchRange(addr, size)
	if n == 0 {
		return
	}
	now := nanotime()
	i := claimSlot(lo, lo+n, now)
	if i < 0 {
		watchStats.dropped.addByG(1)
		return
	}
	t.creator() // the access may be reported as the earlier one
	r := &watchRec{
		lo: lo, hi: lo + n, write: write,
		owner: t, g: t.g, site: site,
		gen: gcGen.Load(), global: site&SiteGlobal != 0,
		armedAt: now, deadline: now + watchLimit.Load(),
		wait: collide, done: make(chan struct{}),
		stack: callerPCs(),
	}
	s := &watchSlots[i]
	s.rec.Store(r)
	if !e.soft {
		// The record is published first, so that a hit during the
		// ioctls is decided against it; the slot counts as armed only
		// once every event is aimed at the bytes.
		if err := charged(func() error { return e.hw.arm(i, lo, n, write) }); err != nil {
			s.rec.Store(nil)
			releaseSlot(e, i, false)
			watchStats.dropped.addByG(1)
			return
		}
	}
	gateInc() // before the owner's next synchronization: see gate
	setArmed(i, true)
	s.busy.Store(false)
	watchStats.armed.Add(1)
	if e.soft || r.wait {
		// The reaper frees software watchpoints at their time limit, and
		// ends the waits of a collide build on either engine, so that a
		// wait ends even if the hardware engine's loop has stopped.
		select {
		case wakeSoft <- struct{}{}:
		default:
		}
	}
	if r.wait {
		// DataCollider: the access waits while the watchpoint looks for
		// a conflicting one; any it catches is concurrent with it. The
		// first race it catches ends the wait, or else the reaper at the
		// time limit (reapExpired).
		<-r.done
		if !e.soft {
			e.hw.flush() // hits that trapped just before the deadline
		}
		freeWatch(i, r)
	}
}

// cannotArm reports, without a lock, whether a sample of the size bytes
// at addr would certainly be dropped: every slot watches or rests, its
// site cools down, or a slot watches bytes that the sample would watch.
// A site that a build sampled runs its
// hook at every execution, and in a hot loop nearly every execution finds
// the slots taken, often by its own earlier executions: this is the test
// that makes such an execution cheap, before the goroutine lookup and the
// clock read of an arming (bigcache's WriteToCache, static at 1%: 7.3
// million samples dropped in 300000 operations, most of the slowdown
// of its build). Unlike claimSlot
// it reads no clock, so a watchpoint past its time limit holds its slot
// until the engine's loop or the reaper frees it, as they do within
// maxNap; a slot freed meanwhile is found by the next sample. Dropping a
// sample can miss a race, never invent one.
func cannotArm(addr, size uintptr, site uint64) bool {
	if allTaken() || cooling(site) {
		return true
	}
	lo, n := watchRange(addr, size)
	for i := range watchSlots {
		if r := watchSlots[i].rec.Load(); r != nil && lo < r.hi && r.lo < lo+n {
			return true
		}
	}
	return false
}

// A hardware watchpoint whose owner keeps accessing its bytes costs the
// owner a debug exception and a sample at each access (27-45us on the
// machine racegen is developed on), until the engine has seen
// selfHitLimit of them and frees it early. The site that armed it is
// usually in a loop, and arming it again at once (an ioctl per event to
// arm and one to disarm, 140-160us each) started the same cycle over: in a build
// of bigcache that sampled a write of fmt's flags, every later read of
// them by the owner trapped, and the cycle took most of the program's
// time. Such a site cools down instead: its samples are dropped
// (cannotArm) until the reaper ends the cooldown. The first cooldown lasts
// one time limit, and each that the site needs again before one of its
// watchpoints has run its course lasts twice the one before, up to
// 2^maxCoolLevel time limits: a site that is hot whenever it is sampled
// (fasthttp's bufio.Reader fields) costs, over a run, a number of armings
// and exceptions that grows with the logarithm of the run's length. Freeing
// such a watchpoint is dearer than arming it, since its owner keeps
// trapping while the disarming ioctls run (1.6ms per disarming, on
// average, in fasthttp's build at -seed=2). A cooldown gives the site
// fewer watchpoints, so it can miss a race, never invent one.
const (
	numCool      = 16
	maxCoolLevel = 10
)

var coolSites [numCool]struct {
	site  atomic.Uint64 // the site cooling down, 0 if none
	until atomic.Int64  // when the cooldown ends (nanotime)
	last  atomic.Uint64 // the site of the entry's last cooldown
	level atomic.Uint32 // last's next cooldown lasts 2^level time limits
	_     [36]byte
}

// coolSite starts a cooldown of site from the time from. Only the
// hardware engine's loop calls it.
func coolSite(site uint64, from int64) {
	c := &coolSites[site%numCool]
	level := uint32(0)
	if c.last.Load() == site {
		level = c.level.Load()
	}
	c.level.Store(min(level+1, maxCoolLevel))
	c.last.Store(site)
	c.until.Store(from + watchLimit.Load()<<level)
	c.site.Store(site)
}

// relaxSite halves the next cooldown of site, one of whose watchpoints
// ran to its time limit. A concurrent coolSite of another site sharing
// the entry may lose the update, which only changes a cooldown's length.
func relaxSite(site uint64) {
	c := &coolSites[site%numCool]
	if l := c.level.Load(); c.last.Load() == site && l > 0 {
		c.level.Store(l - 1)
	}
}

// cooling reports whether site is cooling down.
func cooling(site uint64) bool {
	return site != 0 && coolSites[site%numCool].site.Load() == site
}

// endCooldowns ends the cooldowns over at now and returns when the next
// ends, or 0 if none is on. A cooldown started concurrently may be ended
// early, which only gives its site a watchpoint sooner.
func endCooldowns(now int64) (next int64) {
	for i := range coolSites {
		c := &coolSites[i]
		site := c.site.Load()
		if site == 0 {
			continue
		}
		if u := c.until.Load(); now > u {
			c.site.CompareAndSwap(site, 0)
		} else if next == 0 || u < next {
			next = u
		}
	}
	return next
}

// claimSlot returns a free slot for the bytes [lo, hi), marked busy, or
// -1. It frees expired watchpoints on the way, so that the time limit
// holds even when the reaper is late.
func claimSlot(lo, hi uintptr, now int64) int {
	for i := range watchSlots {
		r := watchSlots[i].rec.Load()
		if r == nil {
			continue
		}
		if now > r.deadline && !r.wait {
			expireWatch(i, r)
			continue
		}
		if lo < r.hi && r.lo < hi {
			return -1 // the bytes are watched already
		}
	}
	for i := range watchSlots {
		s := &watchSlots[i]
		if s.rec.Load() != nil || now < s.restUntil.Load() || !s.busy.CompareAndSwap(false, true) {
			continue
		}
		if s.rec.Load() != nil {
			s.busy.Store(false)
			continue
		}
		return i
	}
	return -1
}

// freeWatch disarms slot i if it still holds r. It reports whether it did.
//
// A caller whose r is stale (the reaper or a hit that loaded the record
// before someone else freed it) returns without touching the slot's busy
// flag: taking it, even briefly, would make a concurrent claimSlot pass
// over a free slot and drop its sample, and a preemption between the two
// stores of a stale free can stretch that to milliseconds.
func freeWatch(i int, r *watchRec) bool {
	s := &watchSlots[i]
	if s.rec.Load() != r {
		return false
	}
	for !s.busy.CompareAndSwap(false, true) {
		sleep(microsecond) // arming or freeing takes microseconds
	}
	if s.rec.Load() != r {
		s.busy.Store(false)
		return false
	}
	e := curEngine.Load()
	if e != nil && !e.soft {
		// On hardware a slot freed early rests until the time limit
		// it would have had, so that the process arms at most one
		// watchpoint per slot per time limit: early frees (a race,
		// the owner's own accesses, a spent watchpoint) let the
		// builds of fasthttp arm ten times as often, a fifth of
		// their time. It rests longer while the arming budget is
		// spent (watchbudget.go). Before unarm, so that hwFull stays
		// set.
		now := nanotime()
		until := armingRest(now)
		if r.deadline > now {
			until = max(until, r.deadline)
		}
		if until > now {
			s.restUntil.Store(until)
		}
	}
	r.unarm(i)
	s.rec.Store(nil)
	releaseSlot(e, i, r.parked.Load())
	r.endWait()
	return true
}

// spend ends the watchpoint r of slot i, which its owner's first
// synchronization after e1 has just stamped: from now on it can report
// nothing. Until then every synchronization operation of the program
// found the gate open, and until it was freed, by the engine after the
// samples taken before the stamp were decided (flush) or at its time
// limit, every access to its bytes was a debug exception and a sample.
// The owner is usually the goroutine that accesses them most: in
// fasthttp's builds, dozens of exceptions per watchpoint while the
// engine's loop waited for a processor to free it, and about 28
// synchronization operations per benchmark operation that found the gate
// open.
//
// A software watchpoint is freed at once: its checks are made by the
// second accesses themselves, and none is pending. A hardware one is
// disarmed by the owner, which pays the ioctls the free would have cost,
// and leaves the armed set and the gate while its record stays for the
// samples still to decide; its slot rests until the record's time limit,
// so that it counts as taken until the engine frees it. If the ioctls
// fail, the record is left as it is, for freeWatch to retry them or
// retire the slot. A watchpoint whose owner waits on it (collide) is
// left to its owner.
func spend(i int, r *watchRec) {
	e := curEngine.Load()
	if e == nil || r.wait {
		return
	}
	if e.soft {
		freeWatch(i, r)
		return
	}
	s := &watchSlots[i]
	if !s.busy.CompareAndSwap(false, true) {
		return // being freed
	}
	if s.rec.Load() == r && charged(func() error { return e.hw.disarm(i) }) == nil {
		r.parked.Store(true)
		s.restUntil.Store(r.deadline) // before unarm: see freeWatch
		r.unarm(i)
	}
	s.busy.Store(false)
}

// unarm takes the watchpoint r of slot i out of the armed set and its
// count off the gate, once: when it is spent or freed, whichever comes
// first.
func (r *watchRec) unarm(i int) {
	if r.unarmed.CompareAndSwap(false, true) {
		setArmed(i, false)
		gateDec()
	}
}

// endRests ends the rests of the slots (freeWatch) that are over at now,
// and returns when the next ends, or 0 if no slot rests.
func endRests(now int64) (next int64) {
	ended := false
	for i := range watchSlots {
		s := &watchSlots[i]
		u := s.restUntil.Load()
		switch {
		case u == 0:
		case u <= now:
			ended = s.restUntil.CompareAndSwap(u, 0) || ended
		case next == 0 || u < next:
			next = u
		}
	}
	if ended {
		armedMu.Lock()
		updateHWFull()
		armedMu.Unlock()
	}
	return next
}

// releaseSlot parks slot i's hardware events, on engine e, unless its
// owner has parked them (spend), and frees the slot, whose busy flag the
// caller holds and whose record it has cleared. A slot whose events could
// not be parked is retired instead: it keeps its busy flag for good, so
// that no sample is armed on events that may still watch the slot's last
// bytes. Their hits find no record and are ignored (hwWatch.decide), so a
// retired slot costs the traps of accesses to those bytes and a slot
// fewer, never a false report.
func releaseSlot(e *engine, i int, parked bool) {
	if e != nil && !e.soft && !parked {
		if err := charged(func() error { return e.hw.disarm(i) }); err != nil {
			watchStats.retired.Add(1)
			if retiredWarned.CompareAndSwap(false, true) {
				printStderr("racegen: a hardware watchpoint could not be disarmed (" + err.Error() + "); its slot is retired\n")
			}
			return
		}
	}
	watchSlots[i].busy.Store(false)
}

// retiredWarned is set once a retired slot has been reported.
var retiredWarned atomic.Bool

// endWait closes r.done, once.
func (r *watchRec) endWait() {
	if r.hit.CompareAndSwap(false, true) {
		close(r.done)
	}
}

// reapExpired ends the watchpoints whose time limit passed: it frees
// them, or, for a watchpoint whose owner waits (a collide build), and
// frees it when the wait ends, ends the wait. It ends the cooldowns and
// the slots' rests that are over too (coolSite, freeWatch). It returns
// the earliest time limit or end of a cooldown or rest still to come, or
// 0 if there is none.
func reapExpired(now int64) (next int64) {
	next = endCooldowns(now)
	if r := endRests(now); r != 0 && (next == 0 || r < next) {
		next = r
	}
	for i := range watchSlots {
		r := watchSlots[i].rec.Load()
		switch {
		case r == nil:
		case now <= r.deadline:
			if next == 0 || r.deadline < next {
				next = r.deadline
			}
		case r.wait:
			r.endWait()
		default:
			expireWatch(i, r)
		}
	}
	return next
}

// expireWatch frees the watchpoint r of slot i, past its time limit.
func expireWatch(i int, r *watchRec) {
	if freeWatch(i, r) {
		relaxSite(r.site)
	}
}

// maxNap bounds the reaper's sleeps, which nothing interrupts. A
// watchpoint armed during one expires after those armed before it, unless
// the time limit was lowered in between (tests lower it): it is then
// reaped at most maxNap late.
const maxNap = 10 * millisecond

// softReaper ends expired software watchpoints (and hardware ones whose
// loop is busy) at their time limit. With none armed, it waits for the
// next to be.
func softReaper() {
	for {
		next := reapExpired(nanotime())
		if next == 0 {
			<-wakeSoft
			continue
		}
		sleep(min(next-nanotime()+microsecond, maxNap))
	}
}

// softAccess is an unsampled access checked against software watchpoints.
func softAccess(p unsafe.Pointer, size uintptr, site uint64, write bool) {
	if e := curEngine.Load(); e == nil || !e.soft {
		return
	}
	t := current()
	if t == nil {
		return // a system stack
	}
	// An address in the stack the goroutine had before current grew it
	// could be watched heap memory by now (stack.go).
	if addr, local := t.address(p); !local {
		softCheck(t, addr, size, site, write)
	}
}

// softCheck is CRSampler's onDataBreakpointFired (Algorithm 3 lines
// 21-33) run by the second access itself: it knows its goroutine, stack
// and time exactly, and checks the owner's clock at the moment of the
// access.
func softCheck(t *thread, addr, size uintptr, site uint64, write bool) {
	m := watchArmed.Load()
	for i := 0; m != 0; i, m = i+1, m>>1 {
		if m&1 == 0 {
			continue
		}
		r := watchSlots[i].rec.Load()
		if r == nil || addr >= r.hi || addr+size <= r.lo || !(write || r.write) || r.owner == t {
			continue
		}
		if r.changedAt.Load() != 0 || nanotime() > r.deadline {
			continue
		}
		t.creator()
		cur := accessInfo{write: write, goid: t.goid, stack: callers(), g: describe(t)}
		clockRace(i, r, cur, site)
	}
}

// clockRace reports a clock race between the first access recorded in r
// (slot i) and a second access cur, identified for deduplication by key
// (its site, or its PC with the top bit set), and frees the watchpoint.
func clockRace(i int, r *watchRec, cur accessInfo, key uint64) {
	watchStats.hits.Add(1)
	defer freeWatch(i, r)
	if !r.global && r.gen != exactGen() {
		return // a GC cycle ran since e1: the bytes may belong to a new object
	}
	k := [2]uint64{min(r.site, key), max(r.site, key)}
	if _, dup := reported.LoadOrStore(k, struct{}{}); dup && opts.dedup {
		return
	}
	rc := race{
		addr: r.lo,
		cur:  cur,
		prev: accessInfo{write: r.write, goid: r.owner.goid, site: r.site, stack: frames(r.stack), g: describe(r.owner)},
	}
	writeReport(&rc)
	watchStats.races.Add(1)
	races.Add(1)
	if opts.haltOnError {
		exit(opts.exitCode)
	}
}

// sampleRead and sampleWrite are sample for SR and SW: one argument
// fewer keeps the hooks, with their inline test (dropsAtOnce), within the
// inliner's budget, and they are not inlined themselves, which would
// count sample's call against that budget.
//
//go:noinline
func sampleRead(p unsafe.Pointer, size uintptr, site uint64) { sample(p, size, site, false) }

//go:noinline
func sampleWrite(p unsafe.Pointer, size uintptr, site uint64) { sample(p, size, site, true) }
