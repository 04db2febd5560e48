package runtime

import "sync"

// CondWait calls c.Wait(). Wait unlocks and relocks c.L from inside the
// sync package, which racegen does not instrument, so the unlock and lock
// are modelled here; the caller is then ordered after the Signal or
// Broadcast that woke it.
func CondWait(c *sync.Cond) {
	modelUnlock(syncer(), c.L)
	c.Wait()
	// The gate may have opened while c.Wait blocked.
	t := syncer()
	modelLock(t, c.L)
	lookupSync(t, addrOf(c)).acquire(t)
}

// CondSignal calls c.Signal() after releasing the caller's clock to c.
func CondSignal(c *sync.Cond) {
	t := syncer()
	lookupSync(t, addrOf(c)).releaseMerge(t)
	c.Signal()
}

// CondBroadcast calls c.Broadcast() after releasing the caller's clock to c.
func CondBroadcast(c *sync.Cond) {
	t := syncer()
	lookupSync(t, addrOf(c)).releaseMerge(t)
	c.Broadcast()
}

// modelUnlock records the release done by l.Unlock() when sync calls it.
func modelUnlock(t *thread, l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		lookupSync(t, addrOf(m)).release(t)
	case *sync.RWMutex:
		lookupSync(t, addrOf(m)).release(t)
	}
}

// modelLock records the acquire done by l.Lock() when sync calls it.
func modelLock(t *thread, l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		lookupSync(t, addrOf(m)).acquire(t)
	case *sync.RWMutex:
		sv := lookupSync(t, addrOf(m))
		sv.acquire(t)
		sv.acquireReverse(t)
	}
}
