package runtime

import (
	"sync/atomic"
	"unsafe"
)

// The hooks in this file return their argument, so that the instrumenter
// can rewrite an access in place, in any expression context, without
// temporaries:
//
//	x = y + 1      becomes   *W(&x, s1, &c) = *R(&y, s2, &c) + 1
//	m[k] = v       becomes   MapW(m, s3)[k] = v
//	string(b)      becomes   string(SliceR(b, s4))
//
// The address is computed where the operand was, the hook call joins the
// calls of the expression in their left-to-right order, and the load or
// store itself stays where the original put it.

// R records a read of *p and returns p. c is the calling function's Ctx,
// or nil outside a function. R and W are written to stay within the
// inliner's budget: in the code they are inlined into, an access costs a
// load and a branch while the gate is closed. Like every hook of this
// file, they test the gate as gateOpen does, spelled out so that the
// inlining tree of each access is one call deep (gate.go).
func R[T any](p *T, site uint64, c *Ctx) *T {
	if atomic.LoadInt64(&gate) != 0 {
		hookAccess(unsafe.Pointer(p), unsafe.Sizeof(*p), site, opRead, c)
	}
	return p
}

// W records a write of *p and returns p.
func W[T any](p *T, site uint64, c *Ctx) *T {
	if atomic.LoadInt64(&gate) != 0 {
		hookAccess(unsafe.Pointer(p), unsafe.Sizeof(*p), site, opWrite, c)
	}
	return p
}

// A map is one location, as in go build -race: every read of an element
// reads the map, every store or delete writes it.
//
// Like R and W, the hooks below inline into the code that calls them, so
// that with the gate closed they cost a load and a branch besides the
// operation they wrap: an append, a copy or a map access compiled in the
// caller as it would be without them. Until they did, an append of a few
// bytes in a hot loop was a call of a generic function at rate 0
// (fastcache's bucket.Set: 44 of the 148 million instructions racegen
// added to its benchmarks at rate 0). What the open gate needs is in the
// functions below them (accessArgs, sliceArgs, copyArgs, copyStringArgs,
// appendArgs): not generic, not inlined, and called with the few
// arguments that keep each hook within the inliner's budget, operands
// passed by address. TestHooksInline checks that the hooks inline.

// MapR records a read of the map m and returns m.
func MapR[M ~map[K]V, K comparable, V any](m M, site uint64) M {
	if atomic.LoadInt64(&gate) != 0 {
		accessArgs(*(*unsafe.Pointer)(unsafe.Pointer(&m)), 1, site, opRead)
	}
	return m
}

// MapW records a write of the map m and returns m.
func MapW[M ~map[K]V, K comparable, V any](m M, site uint64) M {
	if atomic.LoadInt64(&gate) != 0 {
		accessArgs(*(*unsafe.Pointer)(unsafe.Pointer(&m)), 1, site, opWrite)
	}
	return m
}

// MapOf returns the address that identifies the map m (which must hold a
// map value) for the untyped hooks.
func MapOf(m any) unsafe.Pointer { return ChanOf(m) }

// SliceR records a read of every element of s and returns s, for
// conversions of s to a string and other whole-slice reads.
func SliceR[S ~[]E, E any](s S, site uint64) S {
	if atomic.LoadInt64(&gate) != 0 {
		sliceArgs(unsafe.Pointer(&s), unsafe.Sizeof(*new(E)), site, opRead)
	}
	return s
}

// SliceW records a write of every element of s and returns s.
func SliceW[S ~[]E, E any](s S, site uint64) S {
	if atomic.LoadInt64(&gate) != 0 {
		sliceArgs(unsafe.Pointer(&s), unsafe.Sizeof(*new(E)), site, opWrite)
	}
	return s
}

// Copy is copy(dst, src): it records the reads and writes of exactly the
// elements copied.
func Copy[E any](dst, src []E, site uint64) int {
	if atomic.LoadInt64(&gate) != 0 {
		copyArgs(unsafe.Pointer(&dst), unsafe.Pointer(&src), unsafe.Sizeof(*new(E)), site)
	}
	return copy(dst, src)
}

// CopyString is copy(dst, src) for a string source, which is immutable.
func CopyString(dst []byte, src string, site uint64) int {
	if atomic.LoadInt64(&gate) != 0 {
		copyStringArgs(unsafe.Pointer(&dst), len(src), site)
	}
	return copy(dst, src)
}

// Append is append(s, x...): it records the read of x and, when s has the
// capacity to take x in place, the write of s's spare elements, or else
// the read of s's elements, which growing copies.
func Append[S ~[]E, E any](site uint64, s S, x ...E) S {
	if atomic.LoadInt64(&gate) != 0 {
		appendArgs(unsafe.Pointer(&s), unsafe.Pointer(&x), unsafe.Sizeof(*new(E)), site)
	}
	return append(s, x...)
}

// AppendString is append(b, s...) for a string s.
func AppendString[S ~[]byte](site uint64, b S, s string) S {
	if atomic.LoadInt64(&gate) != 0 {
		appendArgs(unsafe.Pointer(&b), unsafe.Pointer(&s), 1, site)
	}
	return append(b, s...)
}

// accessArgs is access once the gate is open, for the hooks above.
//
//go:noinline
func accessArgs(p unsafe.Pointer, size uintptr, site uint64, o op) {
	accessGated(p, size, site, o, nil)
}

// A sliceHeader is the layout of a slice, and its first two words that
// of a string: copyArgs and appendArgs take their operands by address,
// since passing the words one by one would put the hooks over the
// inliner's budget.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// copyArgs records copy(*dst, *src) of elements of size bytes.
//
//go:noinline
func copyArgs(dst, src unsafe.Pointer, size uintptr, site uint64) {
	d, s := (*sliceHeader)(dst), (*sliceHeader)(src)
	n := uintptr(min(d.len, s.len)) * size
	accessGated(s.data, n, site, opRead, nil)
	accessGated(d.data, n, site, opWrite, nil)
}

// copyStringArgs records copy(*dst, src) for a string src of n bytes,
// which is immutable: only the bytes written are accesses.
//
//go:noinline
func copyStringArgs(dst unsafe.Pointer, n int, site uint64) {
	d := (*sliceHeader)(dst)
	accessGated(d.data, uintptr(min(d.len, n)), site, opWrite, nil)
}

// appendArgs records append(*s, *x...) of elements of size bytes; x
// points to a slice or a string, whose cap it does not read.
//
//go:noinline
func appendArgs(s, x unsafe.Pointer, size uintptr, site uint64) {
	sh := (*sliceHeader)(s)
	xdata, xlen := *(*unsafe.Pointer)(x), *(*int)(unsafe.Add(x, unsafe.Sizeof(uintptr(0))))
	if xlen == 0 {
		return
	}
	accessGated(xdata, uintptr(xlen)*size, site, opRead, nil)
	if sh.cap-sh.len >= xlen {
		accessGated(unsafe.Add(sh.data, uintptr(sh.len)*size), uintptr(xlen)*size, site, opWrite, nil)
	} else {
		// Growing copies s's elements into the new array.
		accessGated(sh.data, uintptr(sh.len)*size, site, opRead, nil)
	}
}

// sliceArgs records an access o of every element of *s, of size bytes.
//
//go:noinline
func sliceArgs(s unsafe.Pointer, size uintptr, site uint64, o op) {
	sh := (*sliceHeader)(s)
	accessGated(sh.data, uintptr(sh.len)*size, site, o, nil)
}
