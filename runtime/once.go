package runtime

import (
	"sync"
	"unsafe"
)

// OnceDo calls o.Do(f). The return of f is ordered before the return of
// every call of o.Do.
func OnceDo(o *sync.Once, f func()) {
	o.Do(func() {
		// Deferred so that a panicking f releases too: sync marks the
		// Once done either way, and later calls then return at once.
		defer func() {
			if syncHot() {
				releaseMergeAt(unsafe.Pointer(o))
			}
		}()
		f()
	})
	if syncHot() {
		acquireAt(unsafe.Pointer(o))
	}
}

// A onceVar is the synchronization object of a function made by
// OnceFunc, OnceValue or OnceValues: it lives as long as that function.
type onceVar struct{ sv syncVar }

func (o *onceVar) release() {
	if syncHot() {
		o.sv.releaseMerge(syncer())
	}
}

func (o *onceVar) acquire() {
	if syncHot() {
		o.sv.acquire(syncer())
	}
}

// OnceFunc is sync.OnceFunc(f), with the return of f ordered before the
// return of every call of the result.
func OnceFunc(f func()) func() {
	o := new(onceVar)
	g := sync.OnceFunc(func() {
		defer o.release() // also when f panics: the panic is replayed
		f()
	})
	return func() {
		defer o.acquire()
		g()
	}
}

// OnceValue is sync.OnceValue(f), ordered like OnceFunc.
func OnceValue[T any](f func() T) func() T {
	o := new(onceVar)
	g := sync.OnceValue(func() T {
		defer o.release()
		return f()
	})
	return func() T {
		defer o.acquire()
		return g()
	}
}

// OnceValues is sync.OnceValues(f), ordered like OnceFunc.
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	o := new(onceVar)
	g := sync.OnceValues(func() (T1, T2) {
		defer o.release()
		return f()
	})
	return func() (T1, T2) {
		defer o.acquire()
		return g()
	}
}
