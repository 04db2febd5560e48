package wholeprog

// Handoffs through sync/atomic and sync, whose operations order a store
// before the load that sees it and a once-function before every return
// of Do: the detector models them, it does not instrument them. Neither
// orders what the storer does after the store.

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

type box struct{ n int }

func TestRaceAtomicValueWriteAfterStore(t *testing.T) {
	var v atomic.Value
	done := make(chan bool)
	go func() {
		for v.Load() == nil {
			runtime.Gosched()
		}
		_ = v.Load().(*box).n // race
		done <- true
	}()
	b := &box{n: 1}
	v.Store(b)
	b.n = 2 // race
	<-done
}

func TestRaceSyncMapWriteAfterStore(t *testing.T) {
	var m sync.Map
	done := make(chan bool)
	go func() {
		var b any
		for ok := false; !ok; b, ok = m.Load("k") {
			runtime.Gosched()
		}
		_ = b.(*box).n // race
		done <- true
	}()
	b := &box{n: 1}
	m.Store("k", b)
	b.n = 2 // race
	<-done
}

func TestNoRaceAtomicValue(t *testing.T) {
	var v atomic.Value
	done := make(chan bool)
	go func() {
		for v.Load() == nil {
			runtime.Gosched()
		}
		if n := v.Load().(*box).n; n != 1 {
			t.Errorf("n = %d", n)
		}
		done <- true
	}()
	b := &box{}
	b.n = 1
	v.Store(b)
	<-done
}

func TestNoRaceSyncMap(t *testing.T) {
	var m sync.Map
	done := make(chan bool)
	go func() {
		var b any
		for ok := false; !ok; b, ok = m.Load("k") {
			runtime.Gosched()
		}
		if n := b.(*box).n; n != 1 {
			t.Errorf("n = %d", n)
		}
		done <- true
	}()
	b := &box{}
	b.n = 1
	m.Store("k", b)
	<-done
}

func TestNoRaceSyncOnce(t *testing.T) {
	var once sync.Once
	x := 0
	done := make(chan bool)
	for range 2 {
		go func() {
			once.Do(func() { x = 1 })
			_ = x
			done <- true
		}()
	}
	<-done
	<-done
}

func TestNoRaceSyncOnceValue(t *testing.T) {
	get := sync.OnceValue(func() *box {
		b := new(box)
		b.n = 1
		return b
	})
	done := make(chan bool)
	for range 2 {
		go func() {
			if n := get().n; n != 1 {
				t.Errorf("n = %d", n)
			}
			done <- true
		}()
	}
	<-done
	<-done
}
