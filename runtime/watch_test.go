package runtime

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// The watchpoint tests drive SR/SW and CR/CW from real goroutines and
// order them with plain Go channels, which the detector does not observe:
// both accesses of a pair really run, in a known order, with no
// synchronization the detector sees between them unless a scenario asks
// for one. Each scenario runs on the software engine and, where
// perf_event_open allows it, on the hardware engine.

const watchTestPkg = 0x7e57

var watchSiteNext atomic.Uint32

func init() {
	var b strings.Builder
	for i := 1; i <= 4096; i++ {
		fmt.Fprintf(&b, "watch_test.go:%d:1\twatchTest\n", i)
	}
	RegisterSites(watchTestPkg, b.String())
}

// newSite returns a site of its own, so that reports are never
// deduplicated across scenarios.
func newSite() uint64 { return uint64(watchTestPkg)<<32 | uint64(watchSiteNext.Add(1)) }

// watchMu is a package-level mutex: locking it through the hooks is a
// synchronization operation of the caller.
var watchMu sync.Mutex

func syncOp() {
	Lock(&watchMu)
	Unlock(&watchMu)
}

//go:noinline
func load64(p *uint64) uint64 { return *p }

//go:noinline
func store64(p *uint64, v uint64) { *p = v }

// access does what instrumented code does for a sampled or unsampled
// access of *p: the hook, then the access itself.
func access64(p *uint64, write, sampled bool) {
	s := newSite()
	switch {
	case sampled && write:
		store64(SW(p, s), 1)
	case sampled:
		load64(SR(p, s))
	case write:
		store64(CW(p, s), 2)
	default:
		load64(CR(p, s))
	}
}

var watchHeap atomic.Pointer[uint64]

func newWord() *uint64 {
	p := new(uint64)
	watchHeap.Store(p) // escape to the heap
	return p
}

// engines returns the engines to run a scenario on.
func engines(t *testing.T) []*engine {
	t.Helper()
	e := watcher()
	es := []*engine{{soft: true}}
	if e.hw != nil {
		es = append(es, e)
	} else {
		t.Logf("hardware watchpoints unavailable (%s): software engine only", e.why)
	}
	return es
}

var hwEngine = sync.OnceValue(func() *engine { return watcher() })

// requireHW returns the hardware engine, or skips the test where the
// system gives no hardware watchpoints.
func requireHW(t *testing.T) *engine {
	t.Helper()
	e := hwEngine()
	if e.hw == nil {
		t.Skipf("hardware watchpoints unavailable (%s)", e.why)
	}
	return e
}

// useEngine installs e for the rest of the test, with no watchpoint armed.
func useEngine(t *testing.T, e *engine, limit time.Duration) {
	t.Helper()
	orig := hwEngine()
	freeAll()
	setEngine(e)
	old := watchLimit.Swap(int64(limit))
	t.Cleanup(func() {
		freeAll()
		setEngine(orig)
		watchLimit.Store(old)
	})
}

// siteRec returns the record of the slot that watches for a sample made
// at site, or nil.
func siteRec(site uint64) *watchRec {
	for i := range watchSlots {
		if r := watchSlots[i].rec.Load(); r != nil && r.site == site {
			return r
		}
	}
	return nil
}

// siteArmed reports whether a slot watches for a sample made at site.
func siteArmed(site uint64) bool { return siteRec(site) != nil }

func freeAll() {
	for i := range watchSlots {
		if r := watchSlots[i].rec.Load(); r != nil {
			freeWatch(i, r)
		}
	}
	waitIdle()
	// The slots that hardware watchpoints freed early rest until
	// their time limits, which tests set long, or while the arming
	// budget is spent, which the tests before may have done.
	armDebt.mu.Lock()
	armDebt.debt = 0
	armDebt.mu.Unlock()
	endRests(math.MaxInt64)
}

// waitIdle waits, for up to a minute, until no slot is held. A free made
// by another goroutine (the reaper, the hardware engine's loop) clears the
// slot's bit in watchArmed first and releases the slot only after it has
// disarmed the hardware, a few ioctls later; a sample made in between
// finds the slot busy and is dropped, which made TestWatchTimeLimit/hw arm
// 3 of its 4 watchpoints about once in 90 runs.
func waitIdle() {
	deadline := time.Now().Add(time.Minute)
	for i := range watchSlots {
		s := &watchSlots[i]
		for (s.busy.Load() || s.rec.Load() != nil) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Microsecond)
		}
	}
}

func (e *engine) String() string {
	if e.soft {
		return "sw"
	}
	return "hw"
}

// settle lets the engine decide what has happened so far.
func settle(e *engine) {
	if !e.soft {
		e.hw.flush()
	}
}

type watchScenario struct {
	name        string
	aWrite      bool          // the sampled access writes
	bWrite      bool          // the second access writes
	sameG       bool          // the second access is the first goroutine's own
	syncBetween bool          // the first goroutine synchronizes between the accesses
	syncAfter   bool          // ... after the second access, before the verdict
	bSampled    bool          // the second access is itself sampled
	delay       time.Duration // before the second access
	limit       time.Duration // the time limit, if not scenarioLimit
	want        bool
}

// scenarioLimit is the time limit of the scenarios other than "expired".
// The second access follows the first at once, but on a loaded machine
// "at once" can take many milliseconds, and a limit the scheduler could
// exceed would fail a scenario for a delay, not for a verdict. "expired"
// depends on its limit only as a lower bound: its second access sleeps
// three limits first.
const scenarioLimit = time.Minute

var watchScenarios = []watchScenario{
	{name: "write-read", aWrite: true, want: true},
	{name: "write-write", aWrite: true, bWrite: true, want: true},
	{name: "read-write", bWrite: true, want: true},
	{name: "read-read", want: false},
	{name: "sampled-sampled", aWrite: true, bWrite: true, bSampled: true, want: true},
	{name: "sync-between", aWrite: true, bWrite: true, syncBetween: true, want: false},
	{name: "sync-between-read", bWrite: true, syncBetween: true, want: false},
	{name: "sync-after", aWrite: true, syncAfter: true, want: true},
	{name: "same-goroutine", aWrite: true, bWrite: true, sameG: true, want: false},
	{name: "same-goroutine-read", bWrite: true, sameG: true, want: false},
	{name: "expired", aWrite: true, bWrite: true, delay: 60 * time.Millisecond, limit: 20 * time.Millisecond, want: false},
}

// run plays s and reports whether a race was reported.
func (s watchScenario) run(t *testing.T, e *engine) bool {
	limit := s.limit
	if limit == 0 {
		limit = scenarioLimit
	}
	watchLimit.Store(int64(limit))
	x := newWord()
	before := Races()
	if s.syncAfter && !e.soft {
		e.hw.hold()
	}
	ready, bDone, aDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(aDone)
		access64(x, s.aWrite, true)
		if s.syncBetween {
			syncOp()
		}
		if s.sameG {
			time.Sleep(s.delay)
			access64(x, s.bWrite, s.bSampled)
			close(ready)
			return
		}
		close(ready)
		<-bDone
		if s.syncAfter {
			// Late enough that no clock slack can excuse it; the
			// detector goroutine is held off meanwhile, so the verdict
			// is made after the owner's clock moved.
			time.Sleep(time.Millisecond)
			syncOp()
		}
	}()
	if !s.sameG {
		go func() {
			defer close(bDone)
			<-ready
			time.Sleep(s.delay)
			access64(x, s.bWrite, s.bSampled)
		}()
		<-bDone
	}
	<-aDone
	if s.syncAfter && !e.soft {
		e.hw.release()
	}
	settle(e)
	return Races() > before
}

func TestWatchScenarios(t *testing.T) {
	for _, e := range engines(t) {
		t.Run(e.String(), func(t *testing.T) {
			useEngine(t, e, scenarioLimit)
			for _, s := range watchScenarios {
				freeAll()
				if got := s.run(t, e); got != s.want {
					t.Errorf("%s: reported %v, want %v", s.name, got, s.want)
				}
			}
		})
	}
}

// TestWatchHWMatchesSW runs every scenario on both engines, several
// times, and compares the verdicts.
func TestWatchHWMatchesSW(t *testing.T) {
	es := engines(t)
	if len(es) < 2 {
		t.Skip("hardware watchpoints unavailable: nothing to compare")
	}
	for _, s := range watchScenarios {
		if s.delay > 0 {
			continue // covered by TestWatchScenarios; slow
		}
		var verdicts [2]int
		for k, e := range es {
			useEngineNoCleanup(e, scenarioLimit)
			for range 5 {
				freeAll()
				if s.run(t, e) {
					verdicts[k]++
				}
			}
		}
		restoreEngine()
		if verdicts[0] != verdicts[1] {
			t.Errorf("%s: software engine reported %d of 5 runs, hardware %d", s.name, verdicts[0], verdicts[1])
		}
	}
}

func useEngineNoCleanup(e *engine, limit time.Duration) {
	freeAll()
	setEngine(e)
	watchLimit.Store(int64(limit))
}

func restoreEngine() {
	freeAll()
	setEngine(hwEngine())
	watchLimit.Store(int64(opts.watch))
}

// TestWatchTimeLimit: a watchpoint is freed at its time limit, after which
// an access is not reported and the slot can be armed again.
func TestWatchTimeLimit(t *testing.T) {
	for _, e := range engines(t) {
		t.Run(e.String(), func(t *testing.T) {
			const limit = 20 * time.Millisecond
			useEngine(t, e, limit)
			x := newWord()
			// start precedes the arming, so that the time to the
			// watchpoint's release is at least the limit however
			// late this goroutine runs; the release itself may come
			// late under load, so there is no upper bound but a
			// guard against a watchpoint that is never freed.
			start := time.Now()
			armed := watchStats.armed.Load()
			access64(x, true, true)
			if watchStats.armed.Load() == armed {
				t.Fatal("sampled write armed no watchpoint")
			}
			for watchArmed.Load() != 0 {
				if time.Since(start) > time.Minute {
					t.Fatalf("watchpoint still armed %v after arming, limit %v", time.Since(start), limit)
				}
				time.Sleep(time.Millisecond)
			}
			if d := time.Since(start); d < limit {
				t.Errorf("watchpoint freed after %v, before its limit %v", d, limit)
			}
			waitIdle() // the reaper may still be disarming the slot
			before := Races()
			done := make(chan struct{})
			go func() { defer close(done); access64(x, true, false) }()
			<-done
			settle(e)
			if Races() != before {
				t.Errorf("access after the time limit was reported")
			}
			// Every slot is reusable.
			armed = watchStats.armed.Load()
			var ws [numWatch]*uint64
			for i := range ws {
				ws[i] = newWord()
				access64(ws[i], false, true)
			}
			if got := watchStats.armed.Load() - armed; got != numWatch {
				t.Errorf("armed %d watchpoints after expiry, want %d", got, numWatch)
			}
		})
	}
}

// TestWatchSlotsFull: when every slot is busy a new sample is dropped, as
// is a sample of bytes already watched. On hardware SR and SW drop it
// inline, without a count (dropsAtOnce).
func TestWatchSlotsFull(t *testing.T) {
	for _, e := range engines(t) {
		t.Run(e.String(), func(t *testing.T) {
			// Long enough that no slot expires while the test runs,
			// however slowly.
			useEngine(t, e, time.Hour)
			armed, dropped := watchStats.armed.Load(), watchStats.dropped.load()
			var ws [numWatch + 1]*uint64
			for i := range ws {
				ws[i] = newWord()
				access64(ws[i], false, true)
			}
			access64(ws[0], true, true)
			if got := watchStats.armed.Load() - armed; got != numWatch {
				t.Errorf("armed %d, want %d", got, numWatch)
			}
			last := uintptr(unsafe.Pointer(ws[numWatch]))
			for i := range watchSlots {
				if r := watchSlots[i].rec.Load(); r != nil && r.lo == last {
					t.Errorf("slot %d watches the sample made with every slot watching", i)
				}
			}
			if e.soft {
				if got := watchStats.dropped.load() - dropped; got != 2 {
					t.Errorf("dropped %d, want 2", got)
				}
			} else if !dropsAtOnce() {
				t.Error("with every slot watching, SR and SW do not drop their samples at once")
			}
		})
	}
}

// TestCannotArm checks the lock-free test that lets a hardware sample
// that cannot arm return before it looks anything up: it must agree with
// claimSlot, dropping a sample whose bytes a slot watches or when every
// slot watches, and no other.
func TestCannotArm(t *testing.T) {
	useEngine(t, &engine{soft: true}, time.Hour)
	x := newWord()
	addr := uintptr(unsafe.Pointer(x))
	if cannotArm(addr, 8, newSite()) {
		t.Fatal("cannotArm with nothing armed")
	}
	access64(x, false, true) // watches the 8 bytes of x
	tests := []struct {
		name       string
		addr, size uintptr
		want       bool
	}{
		{"same bytes", addr, 8, true},
		{"first byte", addr, 1, true},
		{"last half", addr + 4, 4, true},
		// A sample watches the first aligned 8 bytes it covers,
		// addr-8 to addr here, which x's watchpoint does not.
		{"a wider access", addr - 8, 24, false},
		{"next word", addr + 8, 8, false},
		{"previous word", addr - 8, 8, false},
	}
	for _, tt := range tests {
		if got := cannotArm(tt.addr, tt.size, newSite()); got != tt.want {
			t.Errorf("%s: cannotArm = %v, want %v", tt.name, got, tt.want)
		}
	}
	for range numWatch - 1 {
		access64(newWord(), false, true)
	}
	if y := newWord(); !cannotArm(uintptr(unsafe.Pointer(y)), 8, newSite()) {
		t.Errorf("cannotArm = false with all %d slots watching (armed %04b)", numWatch, watchArmed.Load())
	}
}

// TestWatchStaleFree: freeing a record that no longer holds its slot (the
// reaper or a hit that loaded it before another goroutine freed it) leaves
// the slot alone. It once took the slot's busy flag to find that out, and a
// sample claiming the slot meanwhile passed over it and was dropped, which
// can make TestWatchSlotsFull arm 3 of its 4 watchpoints (as it did once
// in CI, at 4ce9b95).
func TestWatchStaleFree(t *testing.T) {
	useEngine(t, &engine{soft: true}, time.Hour)
	access64(newWord(), false, true)
	i, stale := -1, (*watchRec)(nil)
	for j := range watchSlots {
		if r := watchSlots[j].rec.Load(); r != nil {
			i, stale = j, r
		}
	}
	if stale == nil {
		t.Fatal("sampled read armed no watchpoint")
	}
	if !freeWatch(i, stale) {
		t.Fatal("freeWatch did not free the current record")
	}
	// The slot is being armed again: its busy flag is held.
	s := &watchSlots[i]
	if !s.busy.CompareAndSwap(false, true) {
		t.Fatal("slot busy after its record was freed")
	}
	done := make(chan bool)
	go func() { done <- freeWatch(i, stale) }()
	select {
	case freed := <-done:
		if freed {
			t.Error("stale freeWatch reported freeing the slot")
		}
	case <-time.After(time.Minute):
		t.Fatal("stale freeWatch waited for the busy slot")
	}
	if !s.busy.Load() {
		t.Error("stale freeWatch released a busy flag it did not hold")
	}
	s.busy.Store(false)
}

// TestCollide: in a collide build the sampled access waits, and a
// conflicting access made during the wait is reported and ends it.
func TestCollide(t *testing.T) {
	for _, e := range engines(t) {
		t.Run(e.String(), func(t *testing.T) {
			// With an hour's limit only a caught race ends the wait
			// within the test; how soon it ends depends on the load,
			// so the time is not measured, only guarded against a
			// wait that never ends.
			useEngine(t, e, time.Hour)
			collide = true
			defer func() { collide = false }()
			collideOnce(t)
			if !e.soft {
				// Arming a hardware watchpoint takes a few ioctls, and
				// a loaded machine can preempt the owner between them
				// (the cause of this test's old flakiness): an access
				// made then must not be taken as one made during the
				// wait. The pause stands for the preemption.
				hwArmPause = func() { time.Sleep(10 * time.Millisecond) }
				collideOnce(t)
				hwArmPause = nil
			}

			// Without a conflicting access it waits out the limit.
			watchLimit.Store(int64(30 * time.Millisecond))
			start := time.Now()
			access64(newWord(), true, true)
			if d := time.Since(start); d < 30*time.Millisecond {
				t.Errorf("unmatched sampled access waited %v, want the 30ms limit", d)
			}
			if watchArmed.Load() != 0 {
				t.Errorf("watchpoint still armed after the wait")
			}
		})
	}
}

// collideOnce makes a sampled read wait, and another goroutine write the
// bytes once the watchpoint watches; the write must be reported and end
// the wait.
func collideOnce(t *testing.T) {
	t.Helper()
	x := newWord()
	before := Races()
	bDone := make(chan struct{})
	go func() {
		defer close(bDone)
		// A watchpoint's bit is set once it watches (on hardware:
		// once its events are aimed at x).
		for watchArmed.Load() == 0 {
			time.Sleep(100 * time.Microsecond)
		}
		access64(x, true, false)
	}()
	aDone := make(chan struct{})
	go func() {
		defer close(aDone)
		// The hook alone: it waits until B writes. (The read itself
		// would race with B's write, which go test -race reports.)
		SR(x, newSite())
	}()
	<-bDone
	select {
	case <-aDone:
	case <-time.After(30 * time.Second):
		// The cleanup frees the watchpoint, which ends A's wait.
		t.Fatalf("sampled access still waiting 30s after the conflicting write (limit 1h); %d races reported", Races()-before)
	}
	if Races() != before+1 {
		t.Errorf("%d races reported during the wait, want 1", Races()-before)
	}
}

func TestWatchRange(t *testing.T) {
	for _, c := range []struct{ addr, size, lo, n uintptr }{
		{0x1000, 8, 0x1000, 8},
		{0x1000, 16, 0x1000, 8},
		{0x1004, 8, 0x1004, 4},
		{0x1001, 8, 0x1004, 4},
		{0x1003, 2, 0x1003, 1},
		{0x1006, 1, 0x1006, 1},
		{0x1001, 3, 0x1002, 2},
		{0x1000, 0, 0, 0},
	} {
		lo, n := watchRange(c.addr, c.size)
		if lo != c.lo || n != c.n {
			t.Errorf("watchRange(%#x, %d) = %#x, %d; want %#x, %d", c.addr, c.size, lo, n, c.lo, c.n)
		}
	}
}
