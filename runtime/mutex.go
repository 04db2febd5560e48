package runtime

import "sync"

// Lock locks m and orders the caller after m's last unlock.
func Lock(m *sync.Mutex) {
	m.Lock()
	if syncHot() {
		acquireAt(addrOf(m))
	}
	mutexAccess(addrOf(m), siteMutexLock)
}

// TryLock tries to lock m; if it succeeds, the caller is ordered after
// m's last unlock.
func TryLock(m *sync.Mutex) bool {
	mutexAccess(addrOf(m), siteMutexLock)
	if !m.TryLock() {
		return false
	}
	if syncHot() {
		acquireAt(addrOf(m))
	}
	return true
}

// Unlock releases the caller's clock into m and unlocks it.
func Unlock(m *sync.Mutex) {
	mutexAccess(addrOf(m), siteMutexUnlock)
	if syncHot() {
		releaseAt(addrOf(m))
	}
	m.Unlock()
}

// RWLock write-locks rw: the caller is ordered after the last Unlock and
// after every RUnlock before it.
func RWLock(rw *sync.RWMutex) {
	access(addrOf(rw), 1, siteRWMutexLock, opRead)
	rw.Lock()
	if syncHot() {
		lockAt(addrOf(rw))
	}
}

// RWTryLock tries to write-lock rw.
func RWTryLock(rw *sync.RWMutex) bool {
	access(addrOf(rw), 1, siteRWMutexLock, opRead)
	if !rw.TryLock() {
		return false
	}
	if syncHot() {
		lockAt(addrOf(rw))
	}
	return true
}

// RWUnlock write-unlocks rw.
func RWUnlock(rw *sync.RWMutex) {
	access(addrOf(rw), 1, siteRWMutexUnlock, opRead)
	if syncHot() {
		releaseAt(addrOf(rw))
	}
	rw.Unlock()
}

// RLock read-locks rw: the caller is ordered after the last Unlock.
func RLock(rw *sync.RWMutex) {
	access(addrOf(rw), 1, siteRWMutexRLock, opRead)
	rw.RLock()
	if syncHot() {
		acquireAt(addrOf(rw))
	}
}

// TryRLock tries to read-lock rw.
func TryRLock(rw *sync.RWMutex) bool {
	access(addrOf(rw), 1, siteRWMutexRLock, opRead)
	if !rw.TryRLock() {
		return false
	}
	if syncHot() {
		acquireAt(addrOf(rw))
	}
	return true
}

// RUnlock read-unlocks rw; the next writer is ordered after it.
func RUnlock(rw *sync.RWMutex) {
	access(addrOf(rw), 1, siteRWMutexRUnlock, opRead)
	if syncHot() {
		releaseReverseAt(addrOf(rw))
	}
	rw.RUnlock()
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
