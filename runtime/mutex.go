package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// The wrappers Lock, Unlock, RWLock, RWUnlock, RLock and RUnlock are
// each the method and, when SyncHot reports that the detector must see
// it, the detector's half: after the method for a lock, which acquires,
// before it for an unlock, which releases. The instrumenter writes that
// split out in place of a statement that calls the method (m.Lock()
// becomes m.Lock(); if SyncHot() { Locked(m, &ctx) }, with the function's
// Ctx), so that with the gate closed the method compiles as in the
// original and costs a load and a branch more. A deferred unlock calls
// UnlockIn, RWUnlockIn or RUnlockIn, which take the Ctx too; the wrappers
// remain for the other forms (method values, sync.Locker values, go
// statements).

// SyncHot reports whether a synchronization operation must call into the
// detector: to record it (the gate is open, or the build is static) or to
// count it for the pacer. It is syncHot spelled out, so that each lock
// statement's test inlines one call deep (see gateOpen).
func SyncHot() bool { return atomic.LoadInt64(&syncGate) != 0 }

// Lock locks m and orders the caller after m's last unlock.
func Lock(m *sync.Mutex) {
	m.Lock()
	if syncHot() {
		Locked(m, nil)
	}
}

// Locked is the detector's half of m.Lock(), called after it: the
// caller is ordered after m's last unlock, and the lock's update of m's
// state is an access. c is the calling function's Ctx, or nil (syncerIn).
func Locked(m *sync.Mutex, c *Ctx) {
	t := syncerIn(c)
	lookupSync(t, unsafe.Pointer(m)).acquire(t)
	mutexAccess(t, unsafe.Pointer(m), siteMutexLock)
}

// TryLock tries to lock m; if it succeeds, the caller is ordered after
// m's last unlock.
func TryLock(m *sync.Mutex) bool {
	mutexAccess(nil, unsafe.Pointer(m), siteMutexLock)
	if !m.TryLock() {
		return false
	}
	if syncHot() {
		acquireAt(unsafe.Pointer(m))
	}
	return true
}

// Unlock releases the caller's clock into m and unlocks it.
func Unlock(m *sync.Mutex) { UnlockIn(m, nil) }

// UnlockIn is Unlock for defer m.Unlock() in an instrumented function
// whose Ctx is c, which its half takes (Unlocking).
func UnlockIn(m *sync.Mutex, c *Ctx) {
	if syncHot() {
		Unlocking(m, c)
	}
	m.Unlock()
}

// Unlocking is the detector's half of m.Unlock(), called before it: the
// caller's clock is released into m. c is as for Locked.
func Unlocking(m *sync.Mutex, c *Ctx) {
	t := syncerIn(c)
	mutexAccess(t, unsafe.Pointer(m), siteMutexUnlock)
	lookupSync(t, unsafe.Pointer(m)).release(t)
}

// RWLock write-locks rw: the caller is ordered after the last Unlock and
// after every RUnlock before it.
func RWLock(rw *sync.RWMutex) {
	rw.Lock()
	if syncHot() {
		RWLocked(rw, nil)
	}
}

// RWLocked is the detector's half of rw.Lock(), called after it. c is as
// for Locked.
func RWLocked(rw *sync.RWMutex, c *Ctx) {
	t := syncerIn(c)
	rwMutexAccess(t, unsafe.Pointer(rw), siteRWMutexLock)
	lookupSync(t, unsafe.Pointer(rw)).acquireLock(t)
}

// RWTryLock tries to write-lock rw.
func RWTryLock(rw *sync.RWMutex) bool {
	rwMutexAccess(nil, unsafe.Pointer(rw), siteRWMutexLock)
	if !rw.TryLock() {
		return false
	}
	if syncHot() {
		lockAt(unsafe.Pointer(rw))
	}
	return true
}

// RWUnlock write-unlocks rw.
func RWUnlock(rw *sync.RWMutex) { RWUnlockIn(rw, nil) }

// RWUnlockIn is RWUnlock for defer rw.Unlock() in an instrumented
// function whose Ctx is c (RWUnlocking).
func RWUnlockIn(rw *sync.RWMutex, c *Ctx) {
	if syncHot() {
		RWUnlocking(rw, c)
	}
	rw.Unlock()
}

// RWUnlocking is the detector's half of rw.Unlock(), called before it. c
// is as for Locked.
func RWUnlocking(rw *sync.RWMutex, c *Ctx) {
	t := syncerIn(c)
	rwMutexAccess(t, unsafe.Pointer(rw), siteRWMutexUnlock)
	lookupSync(t, unsafe.Pointer(rw)).release(t)
}

// RLock read-locks rw: the caller is ordered after the last Unlock.
func RLock(rw *sync.RWMutex) {
	rw.RLock()
	if syncHot() {
		RLocked(rw, nil)
	}
}

// RLocked is the detector's half of rw.RLock(), called after it. c is as
// for Locked.
func RLocked(rw *sync.RWMutex, c *Ctx) {
	t := syncerIn(c)
	rwMutexAccess(t, unsafe.Pointer(rw), siteRWMutexRLock)
	lookupSync(t, unsafe.Pointer(rw)).acquire(t)
}

// TryRLock tries to read-lock rw.
func TryRLock(rw *sync.RWMutex) bool {
	rwMutexAccess(nil, unsafe.Pointer(rw), siteRWMutexRLock)
	if !rw.TryRLock() {
		return false
	}
	if syncHot() {
		acquireAt(unsafe.Pointer(rw))
	}
	return true
}

// RUnlock read-unlocks rw; the next writer is ordered after it.
func RUnlock(rw *sync.RWMutex) { RUnlockIn(rw, nil) }

// RUnlockIn is RUnlock for defer rw.RUnlock() in an instrumented
// function whose Ctx is c (RUnlocking).
func RUnlockIn(rw *sync.RWMutex, c *Ctx) {
	if syncHot() {
		RUnlocking(rw, c)
	}
	rw.RUnlock()
}

// RUnlocking is the detector's half of rw.RUnlock(), called before it. c
// is as for Locked.
func RUnlocking(rw *sync.RWMutex, c *Ctx) {
	t := syncerIn(c)
	rwMutexAccess(t, unsafe.Pointer(rw), siteRWMutexRUnlock)
	lookupSync(t, unsafe.Pointer(rw)).releaseReverse(t, true)
}

// RLocker returns a Locker for rw's read side whose Lock and Unlock are
// observed by the detector, for rw.RLocker() in instrumented code, where a
// sync.Cond may call it from uninstrumented code.
func RLocker(rw *sync.RWMutex) sync.Locker { return rlocker{rw} }

type rlocker struct{ rw *sync.RWMutex }

func (r rlocker) Lock()   { RLock(r.rw) }
func (r rlocker) Unlock() { RUnlock(r.rw) }

// LockerLock calls l.Lock() for a sync.Locker interface value, modelling
// it when the dynamic type is one of sync's locks. Other lockers are
// user types whose own instrumented code is observed.
func LockerLock(l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		Lock(m)
	case *sync.RWMutex:
		RWLock(m)
	default:
		l.Lock()
	}
}

// LockerUnlock calls l.Unlock(), modelling it like LockerLock.
func LockerUnlock(l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		Unlock(m)
	case *sync.RWMutex:
		RWUnlock(m)
	default:
		l.Unlock()
	}
}
