package runtime

// Callbacks that the Go runtime itself runs, on goroutines that no go
// statement of instrumented code started, need their ordering stated:
//
//   - time.AfterFunc(d, f) runs f in a new goroutine when the timer fires.
//     The call is synchronized before f (the Go memory model, "Timers"),
//     and nothing else is: the instrumenter passes Handoff(f) instead, a
//     go statement deferred until the timer fires;
//   - runtime.SetFinalizer and runtime.AddCleanup run their functions on
//     goroutines of the runtime's. As go build -race does (racefingo),
//     each call starts in a context of its own, ordered after everything
//     that happened before it: the instrumenter passes Finalizer(f).
//
// A goroutine the runtime starts without either (a function value the
// instrumenter could not see) is registered at its first hook as ordered
// after everything before it, which may hide races but invents none.

// Handoff returns f wrapped to run as if a go statement here had started
// it: the goroutine that runs the wrapper (the one time.AfterFunc's timer
// starts) is ordered after everything before the call of Handoff, and
// after nothing else. The fork takes no slot until the wrapper runs, so
// a timer that is stopped before it fires costs none.
func Handoff(f func()) func() {
	if f == nil {
		return nil // let AfterFunc fail as it would
	}
	g := fork(true)
	return func() {
		GoStart(g)
		defer GoEnd()
		f()
	}
}

// Finalizer returns f wrapped to run as a finalizer or a cleanup runs
// under go build -race: in a detector context of its own, ordered after
// everything that happened before it starts. It is for the finalizers
// and cleanups of one argument and no result; FinalizerResult is for
// those with one result, which the runtime ignores.
func Finalizer[P any](f func(P)) func(P) {
	if f == nil {
		return nil
	}
	return func(p P) {
		leave := enterAlone()
		defer leave()
		f(p)
	}
}

// FinalizerResult is Finalizer for a finalizer with a result.
func FinalizerResult[P, R any](f func(P) R) func(P) R {
	if f == nil {
		return nil
	}
	return func(p P) R {
		leave := enterAlone()
		defer leave()
		return f(p)
	}
}

// enterAlone gives the running goroutine a detector context of its own
// until the returned function is called, which restores the one it had:
// the context is registered as a goroutine the detector sees for the
// first time (lazyThread), ordered after everything before it. Outside
// dynamic builds with the gate open, or without a g to key the context
// by, it does nothing: a context made now would record nothing.
func enterAlone() (leave func()) {
	gp := getg()
	if gp == 0 || staticSync || !gateOpen() {
		return func() {}
	}
	prev := gtab.lookup(gp)
	t := lazyThread(gp, readGoid(gp))
	return func() {
		t.finished.Store(true)
		freeTid(t)
		t.vc, t.cache, t.vv = nil, nil, nil
		gtab.store(gp, prev)
	}
}
