package runtime_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	rt "github.com/racegen/racegen/runtime"
)

// An edge is a synchronization that may order goroutine A's accesses
// before goroutine B's. rel runs in A; acq runs in B after A has called
// rel unless the edge is a rendezvous (both sides block until the other
// arrives), in which case acq runs concurrently with rel.
type edge struct {
	name       string
	setup      func() (rel, acq func())
	rendezvous bool
	// notOrdering is set for pairs the memory model does not order
	// (two read locks, two loads): even a write before rel races.
	notOrdering bool
}

func edges() []edge {
	return []edge{
		{name: "Mutex", setup: func() (func(), func()) {
			mu := new(sync.Mutex)
			return func() { rt.Lock(mu); rt.Unlock(mu) }, func() { rt.Lock(mu); rt.Unlock(mu) }
		}},
		{name: "Mutex/TryLock", setup: func() (func(), func()) {
			mu := new(sync.Mutex)
			return func() { rt.Lock(mu); rt.Unlock(mu) }, func() {
				if !rt.TryLock(mu) {
					panic("TryLock failed on an unlocked mutex")
				}
				rt.Unlock(mu)
			}
		}},
		{name: "Mutex/failed-TryLock", notOrdering: true, setup: func() (func(), func()) {
			// A TryLock that fails acquires nothing.
			mu := new(sync.Mutex)
			mu.Lock() // held by nobody the detector knows of
			return func() {
				if rt.TryLock(mu) {
					panic("TryLock succeeded on a locked mutex")
				}
			}, func() {}
		}},
		{name: "RWMutex/Lock-RLock", setup: func() (func(), func()) {
			rw := new(sync.RWMutex)
			return func() { rt.RWLock(rw); rt.RWUnlock(rw) }, func() { rt.RLock(rw); rt.RUnlock(rw) }
		}},
		{name: "RWMutex/RLock-Lock", setup: func() (func(), func()) {
			rw := new(sync.RWMutex)
			return func() { rt.RLock(rw); rt.RUnlock(rw) }, func() { rt.RWLock(rw); rt.RWUnlock(rw) }
		}},
		{name: "RWMutex/RLock-RLock", notOrdering: true, setup: func() (func(), func()) {
			rw := new(sync.RWMutex)
			return func() { rt.RLock(rw); rt.RUnlock(rw) }, func() { rt.RLock(rw); rt.RUnlock(rw) }
		}},
		{name: "RWMutex/TryLock-TryRLock", setup: func() (func(), func()) {
			rw := new(sync.RWMutex)
			return func() {
					if !rt.RWTryLock(rw) {
						panic("RWTryLock failed")
					}
					rt.RWUnlock(rw)
				}, func() {
					if !rt.TryRLock(rw) {
						panic("TryRLock failed")
					}
					rt.RUnlock(rw)
				}
		}},
		{name: "RWMutex/TryRLock-TryLock", setup: func() (func(), func()) {
			rw := new(sync.RWMutex)
			return func() {
					if !rt.TryRLock(rw) {
						panic("TryRLock failed")
					}
					rt.RUnlock(rw)
				}, func() {
					if !rt.RWTryLock(rw) {
						panic("RWTryLock failed")
					}
					rt.RWUnlock(rw)
				}
		}},
		{name: "RWMutex/RLocker-Lock", setup: func() (func(), func()) {
			rw := new(sync.RWMutex)
			l := rt.RLocker(rw)
			return func() { l.Lock(); l.Unlock() }, func() { rt.LockerLock(rw); rt.LockerUnlock(rw) }
		}},
		{name: "WaitGroup/Done", setup: func() (func(), func()) {
			wg := new(sync.WaitGroup)
			wg.Add(1)
			return func() { rt.WaitGroupDone(wg) }, func() { rt.WaitGroupWait(wg) }
		}},
		{name: "WaitGroup/Add(-1)", setup: func() (func(), func()) {
			wg := new(sync.WaitGroup)
			rt.WaitGroupAdd(wg, 1)
			return func() { rt.WaitGroupAdd(wg, -1) }, func() { rt.WaitGroupWait(wg) }
		}},
		{name: "Once/Do", setup: func() (func(), func()) {
			o := new(sync.Once)
			return func() { rt.OnceDo(o, func() {}) }, func() { rt.OnceDo(o, func() {}) }
		}},
		{name: "OnceFunc", setup: func() (func(), func()) {
			f := rt.OnceFunc(func() {})
			return f, f
		}},
		{name: "OnceValue", setup: func() (func(), func()) {
			f := rt.OnceValue(func() int { return 1 })
			return func() { f() }, func() { f() }
		}},
		{name: "OnceValues", setup: func() (func(), func()) {
			f := rt.OnceValues(func() (int, error) { return 1, nil })
			return func() { f() }, func() { f() }
		}},
		{name: "Chan/buffered", setup: func() (func(), func()) {
			ch := make(chan int, 1)
			return func() { rt.Send(ch, 1, 0, nil) }, func() { rt.Recv(ch, nil) }
		}},
		{name: "Chan/unbuffered-send-recv", rendezvous: true, setup: func() (func(), func()) {
			ch := make(chan int)
			return func() { rt.Send(ch, 1, 0, nil) }, func() { rt.Recv(ch, nil) }
		}},
		{name: "Chan/unbuffered-recv-send", rendezvous: true, setup: func() (func(), func()) {
			// A receive is synchronized before the send completes.
			ch := make(chan int)
			return func() { rt.Recv(ch, nil) }, func() { rt.Send(ch, 1, 0, nil) }
		}},
		{name: "Chan/close-Recv2", setup: func() (func(), func()) {
			ch := make(chan int)
			return func() { rt.Close(ch, 0) }, func() {
				if _, ok := rt.Recv2(ch, nil); ok {
					panic("receive from closed channel got a value")
				}
			}
		}},
		{name: "Chan/capacity-semaphore", setup: func() (func(), func()) {
			// A channel of capacity 1 used as a lock: the kth receive
			// (A's release) is before the (k+1)th send completes (B's
			// acquire).
			sem := make(chan struct{}, 1)
			rt.Send(sem, struct{}{}, 0, nil) // A holds the semaphore
			return func() { rt.Recv(sem, nil) }, func() { rt.Send(sem, struct{}{}, 0, nil) }
		}},
		{name: "Chan/select", setup: func() (func(), func()) {
			ch := make(chan int, 1)
			other := make(chan int)
			return func() {
					c := rt.ChanPreSend(rt.ChanOf(ch), 0, nil)
					select {
					case ch <- 1:
						c.PostSend()
					case <-other:
					}
				}, func() {
					c := rt.ChanPreRecv(rt.ChanOf(ch), nil)
					o := rt.ChanPreRecv(rt.ChanOf(other), nil)
					select {
					case <-ch:
						c.PostRecv()
					case <-other:
						o.PostRecv()
					}
				}
		}},
		{name: "Cond/Signal", rendezvous: true, setup: func() (func(), func()) { return condEdge(false) }},
		{name: "Cond/Broadcast", rendezvous: true, setup: func() (func(), func()) { return condEdge(true) }},
		{name: "atomic/Store-Load", setup: func() (func(), func()) {
			v := new(int64)
			return func() { rt.AtomicStoreInt64(v, 1, 0) }, func() { rt.AtomicLoadInt64(v, 0) }
		}},
		{name: "atomic/Add-Add", setup: func() (func(), func()) {
			v := new(int64)
			return func() { rt.AtomicAddInt64(v, 1, 0) }, func() { rt.AtomicAddInt64(v, 1, 0) }
		}},
		{name: "atomic/CAS-Load", setup: func() (func(), func()) {
			v := new(uint32)
			return func() { rt.AtomicCompareAndSwapUint32(v, 0, 1, 0) }, func() { rt.AtomicLoadUint32(v, 0) }
		}},
		{name: "atomic/failed-CAS-Load", notOrdering: true, setup: func() (func(), func()) {
			// A compare-and-swap that fails releases nothing, as
			// under go build -race: it is a load.
			v := new(uint32)
			return func() {
				if rt.AtomicCompareAndSwapUint32(v, 1, 2, 0) {
					panic("CompareAndSwap(1, 2) succeeded on 0")
				}
			}, func() { rt.AtomicLoadUint32(v, 0) }
		}},
		{name: "atomic/failed-Pointer.CAS-CAS", notOrdering: true, setup: func() (func(), func()) {
			p := new(atomic.Pointer[int])
			one, two := new(int), new(int)
			return func() {
				if rt.AtomicPointerCompareAndSwap(p, one, two, 0) {
					panic("CompareAndSwap(one, two) succeeded on nil")
				}
			}, func() { rt.AtomicPointerCompareAndSwap(p, nil, one, 0) }
		}},
		{name: "atomic/Load-Load", notOrdering: true, setup: func() (func(), func()) {
			v := new(int64)
			return func() { rt.AtomicLoadInt64(v, 0) }, func() { rt.AtomicLoadInt64(v, 0) }
		}},
		{name: "atomic/Int64.Store-Load", setup: func() (func(), func()) {
			v := new(atomic.Int64)
			return func() { rt.AtomicInt64Store(v, 1, 0) }, func() { rt.AtomicInt64Load(v, 0) }
		}},
		{name: "atomic/Bool.Swap-Load", setup: func() (func(), func()) {
			v := new(atomic.Bool)
			return func() { rt.AtomicBoolSwap(v, true, 0) }, func() { rt.AtomicBoolLoad(v, 0) }
		}},
		{name: "atomic/Pointer.Store-Load", setup: func() (func(), func()) {
			v := new(atomic.Pointer[int])
			return func() { rt.AtomicPointerStore(v, new(int), 0) }, func() { rt.AtomicPointerLoad(v, 0) }
		}},
		{name: "atomic/Value.Store-Load", setup: func() (func(), func()) {
			v := new(atomic.Value)
			return func() { rt.AtomicValueStore(v, 1, 0) }, func() { rt.AtomicValueLoad(v, 0) }
		}},
		{name: "atomic/StorePointer-LoadPointer", setup: func() (func(), func()) {
			v := new(unsafe.Pointer)
			return func() { rt.AtomicStorePointer(v, unsafe.Pointer(new(int)), 0) }, func() { rt.AtomicLoadPointer(v, 0) }
		}},
		{name: "sync.Map/Store-Load", setup: func() (func(), func()) {
			m := new(sync.Map)
			return func() { rt.MapStore(m, 1, 1) }, func() { rt.MapLoad(m, 1) }
		}},
		{name: "sync.Map/LoadOrStore-Range", setup: func() (func(), func()) {
			m := new(sync.Map)
			return func() { rt.MapLoadOrStore(m, 1, 1) }, func() { rt.MapRange(m, func(k, v any) bool { return true }) }
		}},
		{name: "sync.Map/Swap-LoadAndDelete", setup: func() (func(), func()) {
			m := new(sync.Map)
			return func() { rt.MapSwap(m, 1, 1) }, func() { rt.MapLoadAndDelete(m, 1) }
		}},
		{name: "sync.Map/Load-Load", notOrdering: true, setup: func() (func(), func()) {
			m := new(sync.Map)
			return func() { rt.MapLoad(m, 1) }, func() { rt.MapLoad(m, 1) }
		}},
		{name: "Pool", setup: func() (func(), func()) {
			p := new(sync.Pool)
			return func() { rt.PoolPut(p, new(int)) }, func() { rt.PoolGet(p) }
		}},
		{name: "Release-Acquire", setup: func() (func(), func()) {
			a := newObject()
			return func() { rt.Release(a) }, func() { rt.Acquire(a) }
		}},
		{name: "ReleaseMerge-Acquire", setup: func() (func(), func()) {
			a := newObject()
			return func() { rt.ReleaseMerge(a) }, func() { rt.Acquire(a) }
		}},
		{name: "Release-Acquire/other-address", notOrdering: true, setup: func() (func(), func()) {
			a, b := newObject(), newObject()
			return func() { rt.Release(a) }, func() { rt.Acquire(b) }
		}},
	}
}

// condEdge returns a Signal or Broadcast in A and a Wait in B. B is
// parked in Wait before A signals: A takes the lock with plain calls,
// which the detector does not see, once B has released it in Wait.
func condEdge(broadcast bool) (rel, acq func()) {
	mu := new(sync.Mutex)
	c := sync.NewCond(mu)
	waiting := make(chan struct{})
	rel = func() {
		<-waiting
		mu.Lock() // B is in c.Wait, on the notify list
		mu.Unlock()
		if broadcast {
			rt.CondBroadcast(c)
		} else {
			rt.CondSignal(c)
		}
	}
	acq = func() {
		mu.Lock()
		close(waiting)
		rt.CondWait(c)
		mu.Unlock()
	}
	return rel, acq
}

// TestSyncEdges checks, for every synchronization the detector models,
// that a write by A before the release is ordered before B's write after
// the acquire (no race), and that a write by A after the release is not
// (a race), with the accesses in the same real-time order.
func TestSyncEdges(t *testing.T) {
	for _, e := range edges() {
		for _, afterRel := range []bool{false, true} {
			name := e.name + "/write-before-release"
			want := 0
			if afterRel {
				name = e.name + "/write-after-release"
			}
			if afterRel || e.notOrdering {
				want = 1
			}
			t.Run(name, func(t *testing.T) {
				runEdge(t, e, afterRel, want)
			})
		}
	}
}

func runEdge(t *testing.T, e edge, afterRel bool, want int) {
	t.Helper()
	x := newObject()
	sa, sb := newSite(), newSite()
	rel, acq := e.setup()
	expectRaces(t, want, func() {
		released := make(chan struct{})
		done := goInstr(func() {
			if !afterRel {
				rt.Write(x, 8, sa)
			}
			rel()
			close(released)
			if afterRel {
				rt.Write(x, 8, sa)
			}
		})
		if !e.rendezvous {
			<-released
		}
		acq()
		<-done
		rt.Write(x, 8, sb)
	})
}

// TestOncePanic checks that a panic in the function of Once.Do still
// orders it before the return of later calls: sync considers the Once
// done, so later calls return at once and may read what f wrote.
func TestOncePanic(t *testing.T) {
	x := newObject()
	sa, sb := newSite(), newSite()
	o := new(sync.Once)
	expectRaces(t, 0, func() {
		<-goInstr(func() {
			defer func() { recover() }()
			rt.OnceDo(o, func() {
				rt.Write(x, 8, sa)
				panic("in once")
			})
		})
		rt.OnceDo(o, func() { t.Error("Once ran twice") })
		rt.Write(x, 8, sb)
	})
}
