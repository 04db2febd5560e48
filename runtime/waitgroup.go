package runtime

import (
	"sync"
	"unsafe"
)

// WaitGroupAdd calls wg.Add(delta). A negative delta is a Done, which
// releases the caller's clock to the goroutines that Wait.
//
// An Add that takes the counter from zero reads wg's semaphore, as under
// go build -race, which races with a Wait not ordered before it (see
// syncaccess.go).
func WaitGroupAdd(wg *sync.WaitGroup, delta int) {
	if delta < 0 && syncHot() {
		releaseMergeAt(unsafe.Pointer(wg))
	}
	first := delta > 0 && gateOpen() && waitGroupCounter(wg) == 0
	wg.Add(delta)
	if first {
		access(unsafe.Add(unsafe.Pointer(wg), waitGroupSema), 1, siteWaitGroupAdd, opRead)
	}
}

// WaitGroupDone calls wg.Done() after releasing the caller's clock to wg.
func WaitGroupDone(wg *sync.WaitGroup) {
	if syncHot() {
		releaseMergeAt(unsafe.Pointer(wg))
	}
	wg.Done()
}

// WaitGroupWait calls wg.Wait(); the caller is then ordered after every
// Done that let it return.
//
// The first of the goroutines that wait while the counter is above zero
// writes wg's semaphore, as under go build -race.
func WaitGroupWait(wg *sync.WaitGroup) {
	sv := waitGroupWaiter(wg)
	wg.Wait()
	if sv != nil {
		sv.mu.Lock()
		sv.waiters--
		sv.mu.Unlock()
	}
	if syncHot() {
		acquireAt(unsafe.Pointer(wg))
	}
}

// waitGroupWaiter counts the caller among wg's waiters, if the counter is
// above zero, and records the first one's write of the semaphore. It
// returns the syncVar that counts them, or nil.
func waitGroupWaiter(wg *sync.WaitGroup) *syncVar {
	if !gateOpen() || waitGroupCounter(wg) == 0 {
		return nil
	}
	sv := lookupSync(syncer(), unsafe.Pointer(wg))
	if sv == nil {
		return nil
	}
	sv.mu.Lock()
	first := sv.waiters == 0
	sv.waiters++
	sv.mu.Unlock()
	if first {
		access(unsafe.Add(unsafe.Pointer(wg), waitGroupSema), 1, siteWaitGroupWait, opWrite)
	}
	return sv
}

// WaitGroupGo is wg.Go(f): it runs f in a new goroutine that the detector
// sees created here, whose completion Wait is ordered after.
func WaitGroupGo(wg *sync.WaitGroup, f func()) {
	WaitGroupAdd(wg, 1)
	g := GoFork()
	go func() {
		GoStart(g)
		defer GoEnd()
		defer WaitGroupDone(wg)
		f()
	}()
}
