package runtime

import (
	"sync"
	"unsafe"
)

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
	lookupSync(t, unsafe.Pointer(c)).acquire(t)
}

// CondSignal calls c.Signal() after releasing the caller's clock to c.
func CondSignal(c *sync.Cond) {
	t := syncer()
	lookupSync(t, unsafe.Pointer(c)).releaseMerge(t)
	c.Signal()
}

// CondBroadcast calls c.Broadcast() after releasing the caller's clock to c.
func CondBroadcast(c *sync.Cond) {
	t := syncer()
	lookupSync(t, unsafe.Pointer(c)).releaseMerge(t)
	c.Broadcast()
}

// modelUnlock records the release done by l.Unlock() when sync calls it.
func modelUnlock(t *thread, l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		lookupSync(t, unsafe.Pointer(m)).release(t)
	case *sync.RWMutex:
		lookupSync(t, unsafe.Pointer(m)).release(t)
	}
}

// modelLock records the acquire done by l.Lock() when sync calls it.
func modelLock(t *thread, l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		lookupSync(t, unsafe.Pointer(m)).acquire(t)
	case *sync.RWMutex:
		sv := lookupSync(t, unsafe.Pointer(m))
		sv.acquire(t)
		sv.acquireReverse(t)
	}
}
