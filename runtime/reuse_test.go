package runtime_test

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
	"unsafe"

	rt "github.com/racegen/racegen/runtime"
)

// reused is the object whose address the reuse tests get twice. Its size
// is an uncommon size class, so that the freed slot comes back quickly.
type reused [1152]byte

// reuseAddr frees the object at addr (whose last reference the caller has
// dropped) with a GC cycle and allocates objects of the same type until
// one lands at addr. It returns that object, or nil if none did.
func reuseAddr(t *testing.T, addr uintptr) *reused {
	t.Helper()
	p, _ := reuseAddrOf(t, addr, func() *reused { return new(reused) },
		func(p *reused) uintptr { return uintptr(unsafe.Pointer(p)) })
	return p
}

// reuseAddrOf is reuseAddr for objects that alloc makes, whose addresses
// addrOf tells: it reports whether one landed at addr.
func reuseAddrOf[T any](t *testing.T, addr uintptr, alloc func() T, addrOf func(T) uintptr) (T, bool) {
	t.Helper()
	runtime.GC()
	var keep []T
	defer runtime.KeepAlive(keep)
	for range 100000 {
		p := alloc()
		if addrOf(p) == addr {
			return p, true
		}
		keep = append(keep, p)
	}
	var none T
	return none, false
}

// allocReused returns the address of a new heap object that nothing
// references once the caller drops the address.
//
// pointerAt turns such an address into the pointer that a hook takes:
// the object must still be allocated while the hook runs.
//
//go:noinline
func allocReused() uintptr {
	p := new(reused)
	escape(p)
	escape(nil)
	return uintptr(unsafe.Pointer(p))
}

func pointerAt(addr uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&addr)) }

// TestAddressReuse is LARD's third rule: the history of a freed object
// does not carry over to a new object at the same address. Two goroutines
// with no synchronization between them write the old object and the new
// one; that is not a race. The control writes one object from the same
// two goroutines, and is.
func TestAddressReuse(t *testing.T) {
	for _, free := range []bool{true, false} {
		name := "freed"
		want := 0
		if !free {
			name, want = "same-object", 1
		}
		t.Run(name, func(t *testing.T) {
			s1, s2 := newSite(), newSite()
			var addr uintptr
			var obj *reused
			if free {
				addr = allocReused()
			} else {
				obj = new(reused)
				escape(obj)
				addr = uintptr(unsafe.Pointer(obj))
			}
			expectRaces(t, want, func() {
				<-goInstr(func() { rt.Write(pointerAt(addr), 8, s1) })
				if free {
					obj = reuseAddr(t, addr)
					if obj == nil {
						t.Skip("the GC did not hand the freed address out again")
					}
				}
				<-goInstr(func() { rt.Write(unsafe.Pointer(obj), 8, s2) })
			})
			runtime.KeepAlive(obj)
		})
	}
}

// reuseGlobal is memory that is never freed: a race on it is reported
// whatever the GC does.
var reuseGlobal [8]byte

// TestSyncObjectReuse checks that a mutex allocated where a dead mutex was
// does not inherit its release clock: locking the new one does not order
// the caller after unlocks of the old one.
func TestSyncObjectReuse(t *testing.T) {
	x := unsafe.Pointer(&reuseGlobal)
	s1, s2 := newSite()|rt.SiteGlobal, newSite()|rt.SiteGlobal
	type lockObj struct {
		mu sync.Mutex
		_  [1144]byte // the size of reused
	}
	old := new(lockObj)
	addr := uintptr(unsafe.Pointer(old))
	expectRaces(t, 1, func() {
		<-goInstr(func() {
			rt.Write(x, 8, s1)
			rt.Lock(&old.mu)
			rt.Unlock(&old.mu)
		})
		old = nil
		fresh, ok := reuseAddrOf(t, addr, func() *lockObj { return new(lockObj) },
			func(l *lockObj) uintptr { return uintptr(unsafe.Pointer(l)) })
		if !ok {
			t.Skip("the GC did not hand the freed address out again")
		}
		rt.Lock(&fresh.mu)
		rt.Write(x, 8, s2)
		rt.Unlock(&fresh.mu)
	})
}

// TestChanHistoryReuse: a channel's own history goes with the channel. A
// channel made at the address of one that died starts with none, so that
// closing it is not reported against a send on the dead one, while
// closing a live channel after a GC cycle is.
func TestChanHistoryReuse(t *testing.T) {
	live := make(chan int, 1)
	old := make(chan int, 1)
	addr := uintptr(rt.ChanOf(old))
	expectRaces(t, 1, func() {
		<-goInstr(func() {
			rt.Send(old, 1, newSite(), nil)
			rt.Send(live, 1, newSite(), nil)
		})
		old = nil
		fresh, ok := reuseAddrOf(t, addr, func() chan int { return make(chan int, 1) },
			func(c chan int) uintptr { return uintptr(rt.ChanOf(c)) })
		if !ok {
			t.Skip("the GC did not hand the freed address out again")
		}
		rt.Close(fresh, newSite())
		rt.Close(live, newSite()) // the one race
	})
}

// TestGCGenLowerBound checks that the detector's count of GC cycles never
// runs ahead of the runtime's. A count ahead by one lets a history begun
// before a cycle pass for one begun after it, so that a race between an
// object the cycle freed and its successor at the same address would be
// reported. Reports read the exact count while the GC runs often here, so
// the exact count is often read before the finalizer that follows a cycle
// has run.
func TestGCGenLowerBound(t *testing.T) {
	debug.SetGCPercent(1)
	defer debug.SetGCPercent(-1)
	stop := make(chan struct{})
	allocated := make(chan struct{})
	go func() {
		defer close(allocated)
		var junk [][]byte
		for {
			select {
			case <-stop:
				return
			default:
			}
			junk = append(junk, make([]byte, 4096))
			if len(junk) > 1000 {
				junk = nil
			}
		}
	}()
	defer func() { close(stop); <-allocated }()
	start := rt.GCCycles()
	for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
		rt.SyncGCGen()
		if g, n := rt.GCGen(), rt.GCCycles(); g > n {
			t.Fatalf("detector counts %d GC cycles, runtime %d", g, n)
		}
	}
	if n := rt.GCCycles() - start; n < 10 {
		t.Logf("only %d GC cycles ran", n)
	}
}

// blockFinalizers stops the runtime's finalizer goroutine, which runs
// finalizers one at a time, until the returned function is called: a
// finalizer that waits is queued by a GC cycle, and blockFinalizers
// returns once it runs. Meanwhile the finalizer that advances the
// detector's count of GC cycles after each cycle cannot run either.
func blockFinalizers(t *testing.T) (release func()) {
	t.Helper()
	running, stop := make(chan struct{}), make(chan struct{})
	func() {
		b := new(reused)
		runtime.SetFinalizer(b, func(*reused) {
			close(running)
			<-stop
		})
	}()
	for {
		runtime.GC()
		select {
		case <-running:
			return func() { close(stop) }
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestAddressReuseBeforeCatchUp is LARD's third rule in the window after a
// GC cycle and before the detector's count of cycles catches up with it,
// while the finalizer that follows the cycle has not run. An access to a
// new object at a freed object's address then finds the old history
// current, since its generation is the count the detector still holds,
// and checks against it: a race it finds must be dropped by the exact
// count that reports read. Each case accesses the old object from one
// goroutine and the new one from another, with nothing ordering them.
func TestAddressReuseBeforeCatchUp(t *testing.T) {
	access := map[bool]func(unsafe.Pointer, uint64){
		false: func(p unsafe.Pointer, s uint64) { rt.Read(p, 8, s) },
		true:  func(p unsafe.Pointer, s uint64) { rt.Write(p, 8, s) },
	}
	for _, tc := range []struct {
		name          string
		first, second bool // write?
	}{
		{"old-read-new-write", false, true},
		{"old-write-new-read", true, false},
		{"old-write-new-write", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := blockFinalizers(t)
			defer release()
			gen := rt.SyncGCGen()
			addr := allocReused()
			<-goInstr(func() { access[tc.first](pointerAt(addr), newSite()) })
			obj := reuseAddr(t, addr)
			if obj == nil {
				t.Skip("the GC did not hand the freed address out again")
			}
			if n := rt.GCCycles(); n == gen {
				t.Fatalf("no GC cycle completed since the history began (count %d)", n)
			}
			// The case under test: the old history is still there and
			// its generation is the detector's count.
			if g, ok := rt.CellGen(addr); !ok || g != gen || rt.GCGen() != gen {
				t.Fatalf("history of generation %d (%v), detector's count %d, want both %d", g, ok, rt.GCGen(), gen)
			}
			expectRacesNoSync(t, 0, func() {
				<-goInstr(func() { access[tc.second](unsafe.Pointer(obj), newSite()) })
			})
			runtime.KeepAlive(obj)
		})
	}
}

// expectRacesNoSync is expectRaces without its catch-up of the detector's
// count of GC cycles, which would end the window under test.
func expectRacesNoSync(t *testing.T, want int, f func()) {
	t.Helper()
	off := reports.Len()
	before := rt.Races()
	f()
	if got := rt.Races() - before; got != want {
		t.Errorf("got %d races, want %d; reports:\n%s", got, want, reports.since(off))
	}
}
