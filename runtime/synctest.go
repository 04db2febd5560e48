package runtime

// Package testing/synctest runs a test's goroutines in a bubble, and lets
// the test wait until every other goroutine of the bubble is durably
// blocked (synctest.Wait) or has exited (synctest.Test, when it returns).
// Under go build -race the Go runtime orders each bubbled goroutine's
// parking before Wait returns and their exits before Run returns
// (runtime/synctest.go, on the bubble's race address). The detector does
// not see goroutines park, so the instrumenter follows each call of
// internal/synctest.Run and internal/synctest.Wait with AcquireAll
// (instrument/runtimefuncs.go), which orders the caller after everything
// every goroutine has done so far: the bubble's, and the others too,
// which may hide races but cannot invent one.

// AcquireAll orders the current goroutine after everything every
// goroutine has done so far.
func AcquireAll() {
	if syncHot() {
		acquireAll()
	}
}

//go:noinline
func acquireAll() {
	if staticSync {
		onSync()
		return
	}
	t := syncer()
	if t == nil {
		return
	}
	s := syncClock{vc: everyClock(false, nil)}
	t.acquire(&s)
}
