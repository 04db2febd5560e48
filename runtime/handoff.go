package runtime

import (
	"sync/atomic"
	"unsafe"
)

// Callbacks that the Go runtime itself runs, on goroutines that no go
// statement of instrumented code started, need their ordering stated:
//
//   - a timer made by time.AfterFunc(d, f) runs f in a new goroutine when
//     it fires. The timer is a synchronization object, as go build -race
//     treats it: AfterFunc and every Reset release into it (TimerArm), and
//     the goroutine that runs f starts ordered after those releases and
//     nothing else (TimerFunc). The instrumenter replaces AfterFunc and
//     Reset by helpers that call these (instrument/timers.go);
//   - runtime.SetFinalizer and runtime.AddCleanup run their functions on
//     goroutines of the runtime's. As go build -race does (racefingo),
//     each call starts in a context of its own, ordered after everything
//     that happened before it (but other cleanups): the instrumenter
//     passes Finalizer(f) or Cleanup(f).
//
// A goroutine the runtime starts without either (a function value the
// instrumenter could not see) is registered at its first hook as ordered
// after everything before it, which may hide races but invents none.

// TimerArm records that the timer t is armed (by time.AfterFunc or a
// Reset): everything before is ordered before the function it runs.
func TimerArm[T any](t *T) {
	Release(unsafe.Pointer(t))
}

// TimerFunc returns f wrapped to run as the function of the timer *tp,
// made by time.AfterFunc: in the new goroutine the timer starts, which is
// ordered after every TimerArm of the timer and nothing else. *tp is read
// when the timer fires, so it may be set after the call.
func TimerFunc[T any](tp **T, f func()) func() {
	return func() {
		if !staticSync {
			// A goroutine of its own, with an empty clock.
			GoStart(freshGoroutine)
			defer GoEnd()
		}
		Acquire(unsafe.Pointer(*tp))
		f()
	}
}

// Finalizer returns f wrapped to run as a finalizer runs under go build
// -race: in a detector context of its own, ordered after everything that
// happened before it starts, earlier finalizers included (a single
// goroutine runs them all, one after the other). It is for finalizers of
// no result; FinalizerResult is for those with one, which the runtime
// ignores.
func Finalizer[P any](f func(P)) func(P) {
	if f == nil {
		return nil
	}
	return func(p P) {
		a := enterAlone(false)
		defer a.leave()
		f(p)
	}
}

// FinalizerResult is Finalizer for a finalizer with a result.
func FinalizerResult[P, R any](f func(P) R) func(P) R {
	if f == nil {
		return nil
	}
	return func(p P) R {
		a := enterAlone(false)
		defer a.leave()
		return f(p)
	}
}

// Cleanup returns f wrapped to run as a cleanup (runtime.AddCleanup):
// like a finalizer, but not ordered after other cleanups, which "may run
// concurrently with one another" (the runtime's documentation), so that a
// race between two cleanups is reported, as go build -race reports it
// between the cleanups of one batch.
func Cleanup[S any](f func(S)) func(S) {
	if f == nil {
		return nil
	}
	return func(arg S) {
		a := enterAlone(true)
		defer a.leave()
		f(arg)
	}
}

// An alone is a detector context that a finalizer or cleanup runs in,
// and the context its goroutine had before.
type alone struct {
	gp      uintptr
	t, prev *thread
}

// enterAlone gives the running goroutine a detector context of its own
// until leave, which restores the one it had: the context is registered
// as a goroutine the detector sees for the first time (lazyThread),
// ordered after everything before it, except, for a cleanup, other
// cleanups. Outside dynamic builds with the gate open, or without a g to
// key the context by, it does nothing: a context made now would record
// nothing.
//
// A context costs one allocation, its thread, which reports may read
// after it ends: the runtime runs finalizers and cleanups in batches after
// GC cycles, and testing.AllocsPerRun counts every allocation of the
// process, so the vector clock of a context that shared it with no one
// serves the next one (spareAloneClock), and leave is a method rather
// than a closure.
func enterAlone(cleanup bool) alone {
	gp := getg()
	if gp == 0 || staticSync || !gateOpen() {
		return alone{}
	}
	prev := gtab.lookup(gp)
	goid := readGoid(gp)
	return alone{gp, lazyContext(gp, goid, cleanup, aloneCreatorText(goid)), prev}
}

// aloneCreatorText is creatorText for a context of the goroutine goid,
// kept for the next: the runtime's finalizer and cleanup goroutines run
// one context after another, and a goroutine id is never reused.
func aloneCreatorText(goid int64) string {
	if c := lastAloneCreator.Load(); c != nil && c.goid == goid && goid != 0 {
		return c.text
	}
	s := creatorText()
	lastAloneCreator.Store(&aloneCreator{goid, s})
	return s
}

type aloneCreator struct {
	goid int64
	text string
}

var lastAloneCreator atomic.Pointer[aloneCreator]

// spareAloneClock is the vector clock of the last context that left
// without sharing it, for the next lazyContext to fill.
var spareAloneClock atomic.Pointer[vclock]

// leave ends the context a and gives its goroutine the one it had.
func (a alone) leave() {
	t := a.t
	if t == nil {
		return
	}
	t.finished.Store(true)
	freeTid(t)
	if vc := t.vc; vc != nil && !vc.frozen.Load() {
		spareAloneClock.Store(vc)
	}
	t.retire()
	gtab.store(a.gp, a.prev)
}
