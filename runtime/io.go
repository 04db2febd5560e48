package runtime

// Input and output synchronize goroutines through the operating system: a
// goroutine writes a file or a socket, another reads what it wrote. The
// standard library does this below the code racegen instruments, so the
// detector models it the way go build -race does (internal/poll's
// ioSync): one synchronization object for all I/O, which every call that
// may write releases into and every call that may read acquires. The
// instrumenter calls IORelease before a call into an I/O package (os,
// net, net/http, ...), wraps its results in IO1, IO2 or IO3 (or calls
// IOAcquire after it when it has none), and brackets functions it hands
// to such packages as callbacks (HTTP handlers) with IOAcquire on entry
// and a deferred IORelease. The model orders more than the program does,
// which can hide races but not invent them.
var ioSync syncVar

// IORelease releases the current goroutine's clock into the I/O object.
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

// IO1 returns v after IOAcquire: it wraps an I/O call with one result.
func IO1[T any](v T) T {
	IOAcquire()
	return v
}

// IO2 returns a and b after IOAcquire: it wraps an I/O call with two
// results, as in IO2(os.Open(name)).
func IO2[A, B any](a A, b B) (A, B) {
	IOAcquire()
	return a, b
}

// IO3 returns a, b and c after IOAcquire.
func IO3[A, B, C any](a A, b B, c C) (A, B, C) {
	IOAcquire()
	return a, b, c
}
