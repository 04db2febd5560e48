package runtime

import (
	"sync"
	"testing"
	"unsafe"
)

// worker starts an instrumented goroutine, forked now, that runs each
// function passed to do to completion before do returns. The detector
// sees none of the handing over.
func worker(t *testing.T) (do func(func())) {
	t.Helper()
	jobs, done := make(chan func()), make(chan struct{})
	g := GoFork()
	go func() {
		GoStart(g)
		defer GoEnd()
		for f := range jobs {
			f()
			done <- struct{}{}
		}
	}()
	t.Cleanup(func() { close(jobs) })
	return func(f func()) {
		jobs <- f
		<-done
	}
}

// TestReleaseCopyIsApart checks that an object whose release copied the
// releaser's vclock (syncClock.copies) does not see the releaser's later
// joins: b, which acquires m after a released it, is not ordered after c,
// which a joined after that release.
func TestReleaseCopyIsApart(t *testing.T) {
	setSampling(t, true)
	var m, m2 sync.Mutex
	x := heapObject()
	b, c := worker(t), worker(t)

	b(func() { Lock(&m); Unlock(&m) }) // m's first release shares b's vclock
	Lock(&m)                           // a's vclock changes: b's epoch
	Unlock(&m)                         // m's second: a's private vclock is copied
	if !ownsClock(&m) {
		t.Fatal("the release did not copy the releaser's vclock")
	}
	c(func() { Write(x, 8, newSite()); Lock(&m2); Unlock(&m2) })
	Lock(&m2) // a joins c's release, in its own vclock
	Unlock(&m2)
	before := Races()
	b(func() { Lock(&m); Write(x, 8, newSite()); Unlock(&m) })
	if n := Races() - before; n != 1 {
		t.Errorf("%d races reported on x, want 1: m saw a join made after its release", n)
	}
}

// ownsClock reports whether the clock of m's syncVar is a vclock of its
// own, apart from every goroutine's.
func ownsClock(m *sync.Mutex) bool {
	sv := lookupSync(current(), unsafe.Pointer(m))
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return sv.rel.vc != nil && !sv.rel.vc.frozen.Load()
}

// TestMutexTurnsAllocate checks that goroutines taking turns at a mutex
// in a sampling period allocate nothing once the mutex has been released
// twice: each Lock changes the acquirer's clock, which a release that
// shared it would make the acquirer clone.
func TestMutexTurnsAllocate(t *testing.T) {
	setSampling(t, true)
	var m sync.Mutex
	b := worker(t)
	turn := func() { Lock(&m); Unlock(&m) }
	turn()
	b(turn)
	if n := testing.AllocsPerRun(100, func() { turn(); b(turn) }); n != 0 {
		t.Errorf("%v allocations per two turns, want 0", n)
	}
}

// TestAtomicTurnsAllocate checks that goroutines taking turns at adding
// to an atomic counter, and at reading under an RWMutex, allocate
// nothing once warm: an add releases and then acquires, and a release
// that shared the adder's vclock froze it, which the adder then cloned
// at its next acquire that changed it (syncClock.merge).
func TestAtomicTurnsAllocate(t *testing.T) {
	for _, tc := range []struct {
		name string
		turn func(n *uint64, rw *sync.RWMutex)
	}{
		{"add", func(n *uint64, _ *sync.RWMutex) { AtomicAddUint64(n, 1, 0) }},
		{"rlock-add-runlock", func(n *uint64, rw *sync.RWMutex) {
			RLock(rw)
			AtomicAddUint64(n, 1, 0)
			RUnlock(rw)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setSampling(t, true)
			n := new(uint64)
			var rw sync.RWMutex
			b := worker(t)
			turn := func() { tc.turn(n, &rw) }
			for range 2 {
				turn()
				b(turn)
			}
			if a := testing.AllocsPerRun(100, func() { turn(); b(turn) }); a != 0 {
				t.Errorf("%v allocations per two turns, want 0", a)
			}
		})
	}
}

// TestAtomicCopyIsApart checks that an atomic variable whose release
// copied the releaser's vclock does not see the releaser's later joins:
// b, which adds to n after a did, is not ordered after c, which a joined
// after its add.
func TestAtomicCopyIsApart(t *testing.T) {
	setSampling(t, true)
	n := new(uint64)
	var m sync.Mutex
	x := heapObject()
	b, c := worker(t), worker(t)

	b(func() { AtomicAddUint64(n, 1, 0) }) // n's first release shares b's vclock
	AtomicAddUint64(n, 1, 0)               // a joins b's epoch, in a vclock of its own
	AtomicAddUint64(n, 1, 0)               // n covered by a's clock: copied
	c(func() { Write(x, 8, newSite()); Lock(&m); Unlock(&m) })
	Lock(&m) // a joins c's release, in its own vclock
	Unlock(&m)
	before := Races()
	b(func() { AtomicAddUint64(n, 1, 0); Write(x, 8, newSite()) })
	if n := Races() - before; n != 1 {
		t.Errorf("%d races reported on x, want 1: n saw a join made after its release", n)
	}
}
