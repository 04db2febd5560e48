package runtime

import (
	goruntime "runtime"
	"sync/atomic"
)

// A spinLock guards the cells of a shadow line (shadow.go) for the few
// dozen instructions of one access's update, which is all any holder
// does with it. It is a sync.Mutex without the queue: an uncontended
// Lock is one compare-and-swap, as in sync.Mutex, but Unlock is a plain
// store where the architecture orders it after the holder's writes (see
// unlockStore), instead of the atomic add that sync.Mutex.Unlock needs to
// find out whether anyone waits. On the 2-core benchmark machine each
// locked instruction costs about 10 ns, and an access at rate 1 made two,
// on a path of about 100 ns.
//
// A goroutine that finds the lock held spins, then yields: the holder
// may have been preempted or be assisting the garbage collector, and
// yielding lets it run again. Holders never block otherwise.
type spinLock struct {
	v atomic.Uint32
}

// Lock acquires l.
func (l *spinLock) Lock() {
	if !l.v.CompareAndSwap(0, 1) {
		l.lockSlow()
	}
}

func (l *spinLock) lockSlow() {
	for i := 0; ; i++ {
		if l.v.Load() == 0 && l.v.CompareAndSwap(0, 1) {
			return
		}
		if i >= spinTries {
			goruntime.Gosched()
		}
	}
}

// spinTries is how many times a waiter reads a held lock before it starts
// yielding between reads.
const spinTries = 100

// TryLock acquires l if it is free, and reports whether it did.
func (l *spinLock) TryLock() bool { return l.v.CompareAndSwap(0, 1) }

// Unlock releases l, which the caller holds.
func (l *spinLock) Unlock() { unlockStore(&l.v) }
