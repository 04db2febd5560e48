package runtime

import "unsafe"

// C code synchronizes goroutines below anything racegen can instrument:
// a C library can hand data from one goroutine's call to another's. The
// detector models it the way go build -race does (the Go runtime's
// racecgosync): one synchronization object for all C code, which every
// cgo call releases into before it and acquires after it. The
// instrumenter calls IORelease before a call of a cgo function, wraps its
// results in IO1, IO2 or IO3 (or calls IOAcquire after it when it has
// none), and brackets the Go functions C calls (//export) with IOAcquire
// on entry and a deferred IORelease. The model orders more than the
// program does, which can hide races but not invent them. (Input and
// output through the operating system needs no model of racegen's own:
// package syscall's race annotations, which racegen honours, make every
// read acquire and every write release one object of its own.)
var ioSync syncVar

// SyscallAcquire is Acquire for package syscall's annotation after a
// read of a file or socket: it also catches the count of GC cycles up
// (catchUpGen) while the gate is open, so that the histories that the
// program's next accesses begin carry the count of the cycle that just
// ended. The whole-program corpus's TestRaceOSPipeWriteAfter, begun just
// after a cycle, missed its race in 14 of 60 runs without it.
func SyscallAcquire(p unsafe.Pointer) {
	if gateOpen() {
		catchUpGen()
	}
	Acquire(p)
}

// SyscallReleaseMerge is ReleaseMerge for package syscall's annotation
// before a write, catching up as SyscallAcquire does.
func SyscallReleaseMerge(p unsafe.Pointer) {
	if gateOpen() {
		catchUpGen()
	}
	ReleaseMerge(p)
}

// IORelease releases the current goroutine's clock into the C object.
func IORelease() {
	if syncHot() {
		ioRelease()
	}
}

// IOAcquire orders the current goroutine after every IORelease so far.
func IOAcquire() {
	if syncHot() {
		ioAcquire()
	}
}

//go:noinline
func ioRelease() { ioSync.releaseMerge(syncer()) }

//go:noinline
func ioAcquire() { ioSync.acquire(syncer()) }

// IO1 returns v after IOAcquire: it wraps a cgo call with one result.
func IO1[T any](v T) T {
	IOAcquire()
	return v
}

// IO2 returns a and b after IOAcquire: it wraps a cgo call with two
// results, as in IO2(C.f(x)), which gives errno as its second result.
func IO2[A, B any](a A, b B) (A, B) {
	IOAcquire()
	return a, b
}

// IO3 returns a, b and c after IOAcquire: it wraps a cgo call with
// three results.
func IO3[A, B, C any](a A, b B, c C) (A, B, C) {
	IOAcquire()
	return a, b, c
}
