package runtime

import "sync"

// WaitGroupAdd calls wg.Add(delta). A negative delta is a Done, which
// releases the caller's clock to the goroutines that Wait.
func WaitGroupAdd(wg *sync.WaitGroup, delta int) {
	if delta < 0 && syncHot() {
		releaseMergeAt(addrOf(wg))
	}
	wg.Add(delta)
}

// WaitGroupDone calls wg.Done() after releasing the caller's clock to wg.
func WaitGroupDone(wg *sync.WaitGroup) {
	if syncHot() {
		releaseMergeAt(addrOf(wg))
	}
	wg.Done()
}

// WaitGroupWait calls wg.Wait(); the caller is then ordered after every
// Done that let it return.
func WaitGroupWait(wg *sync.WaitGroup) {
	wg.Wait()
	if syncHot() {
		acquireAt(addrOf(wg))
	}
}

// WaitGroupGo is wg.Go(f): it runs f in a new goroutine that the detector
// sees created here, whose completion Wait is ordered after.
func WaitGroupGo(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	g := GoFork()
	go func() {
		GoStart(g)
		defer GoEnd()
		defer WaitGroupDone(wg)
		f()
	}()
}
