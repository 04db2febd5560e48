// The frame sizes that userFrames allows for were measured on amd64.

//go:build amd64

package runtime

import "testing"

// userFrames is the stack that a goroutine's own instrumented functions
// take before their first access, in TestAccessFitsNewStack, besides its
// goroutine function. In x/sync's errgroup, Group.done, which reads the
// group's sem first, takes 120 bytes (a frame of 0x68 bytes, a return
// address and a frame pointer) under Group.Go.func1, whose frame is 0x18
// bytes larger than the test's goroutine function: userFrames allows for
// twice that.
const userFrames = 320

// initialStack is the size of the stack a goroutine starts with, unless
// GODEBUG=adaptivestackstart=1 moves it.
const initialStack = 2048

// TestAccessFitsNewStack: a new goroutine's first access, at rate 1 with
// an empty Ctx, to memory that many other goroutines read (so that it
// joins a large read set), runs within the stack the goroutine starts
// with, after userFrames bytes of its own frames. A hook path deeper than
// that makes every short-lived goroutine copy its stack to a larger one:
// errgroup's BenchmarkGo spent a fifth of its time at rate 1 in
// copystack, called from the prologue of a function that recordRead
// called, when such an access went by accessSlow and accessOne and
// recordRead's append called functions that check the stack.
//
// The accesses measured are those of the steady state, which allocate
// nothing: a goroutine whose access grows the read set's array or its
// index, or takes the first page of its epoch cache, goes on into
// mallocgc, whose depth is the Go runtime's and may need more.
func TestAccessFitsNewStack(t *testing.T) {
	setSampling(t, true)
	x := new(uint64)
	sink = x
	site := newSite()
	// Readers unordered with each other give x's cell a read set. The
	// first warm ones size it, its index and the allocator's caches;
	// the read set's array and its index next grow at 64 and 128
	// entries.
	const warm, measured = 40, 8
	for i := range warm + measured {
		size := readInNewGoroutine(x, site)
		if size.before != initialStack {
			t.Skipf("goroutines start with %d bytes of stack, not %d", size.before, initialStack)
		}
		if i >= warm && size.after != size.before {
			t.Errorf("reader %d: the goroutine's stack grew from %d to %d bytes in its first access, behind %d bytes of its own frames", i, size.before, size.after, userFrames)
		}
	}
}

// stackGrowth is the size of a goroutine's stack before and after an
// access.
type stackGrowth struct{ before, after uintptr }

// readInNewGoroutine reads *x in a goroutine of its own, forked and
// started as instrumented code does, and returns its stack's sizes.
func readInNewGoroutine(x *uint64, site uint64) stackGrowth {
	res := make(chan stackGrowth)
	g := GoFork()
	go func() {
		GoStart(g)
		defer GoEnd()
		res <- readBehindFrames(x, site)
	}()
	return <-res
}

// readBehindFrames reads *x, as an instrumented function's first access
// does, from a frame of userFrames bytes, and returns the size of the
// goroutine's stack before and after.
//
//go:noinline
func readBehindFrames(x *uint64, site uint64) (size stackGrowth) {
	var pad [userFrames - 64]byte // the rest is this frame's other words
	size.before = stackSize()
	var c Ctx
	R(x, site, &c)
	size.after = stackSize()
	keepBytes(pad[:])
	return size
}

//go:noinline
func keepBytes(b []byte) {
	if len(b) > 0 && b[0] != 0 {
		panic("unreachable")
	}
}

// stackSize returns the size of the running goroutine's stack.
func stackSize() uintptr {
	lo, hi := stackBounds(getg())
	return hi - lo
}
