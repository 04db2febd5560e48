package runtime

import "unsafe"

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
// load and a branch while the gate is closed.
func R[T any](p *T, site uint64, c *Ctx) *T {
	if gateOpen() {
		hookAccess(unsafe.Pointer(p), unsafe.Sizeof(*p), site, opRead, c)
	}
	return p
}

// W records a write of *p and returns p.
func W[T any](p *T, site uint64, c *Ctx) *T {
	if gateOpen() {
		hookAccess(unsafe.Pointer(p), unsafe.Sizeof(*p), site, opWrite, c)
	}
	return p
}

// A map is one location, as in go build -race: every read of an element
// reads the map, every store or delete writes it.

// MapR records a read of the map m and returns m.
func MapR[M ~map[K]V, K comparable, V any](m M, site uint64) M {
	access(*(*uintptr)(unsafe.Pointer(&m)), 1, site, opRead)
	return m
}

// MapW records a write of the map m and returns m.
func MapW[M ~map[K]V, K comparable, V any](m M, site uint64) M {
	access(*(*uintptr)(unsafe.Pointer(&m)), 1, site, opWrite)
	return m
}

// MapOf returns the address that identifies the map m (which must hold a
// map value) for the untyped hooks.
func MapOf(m any) uintptr { return ChanOf(m) }

// SliceR records a read of every element of s and returns s, for
// conversions of s to a string and other whole-slice reads.
func SliceR[S ~[]E, E any](s S, site uint64) S {
	var e E
	access(uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(e), site, opRead)
	return s
}

// SliceW records a write of every element of s and returns s.
func SliceW[S ~[]E, E any](s S, site uint64) S {
	var e E
	access(uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(e), site, opWrite)
	return s
}

// Copy is copy(dst, src): it records the reads and writes of exactly the
// elements copied.
func Copy[E any](dst, src []E, site uint64) int {
	n := min(len(dst), len(src))
	var e E
	access(uintptr(unsafe.Pointer(unsafe.SliceData(src))), uintptr(n)*unsafe.Sizeof(e), site, opRead)
	access(uintptr(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(n)*unsafe.Sizeof(e), site, opWrite)
	return copy(dst, src)
}

// CopyString is copy(dst, src) for a string source, which is immutable.
func CopyString(dst []byte, src string, site uint64) int {
	n := min(len(dst), len(src))
	access(uintptr(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(n), site, opWrite)
	return copy(dst, src)
}

// Append is append(s, x...): it records the read of x and, when s has the
// capacity to take x in place, the write of s's spare elements, or else
// the read of s's elements, which growing copies.
func Append[S ~[]E, E any](site uint64, s S, x ...E) S {
	var e E
	sz := unsafe.Sizeof(e)
	if len(x) > 0 {
		access(uintptr(unsafe.Pointer(unsafe.SliceData(x))), uintptr(len(x))*sz, site, opRead)
		if cap(s)-len(s) >= len(x) {
			access(uintptr(unsafe.Pointer(unsafe.SliceData(s)))+uintptr(len(s))*sz, uintptr(len(x))*sz, site, opWrite)
		} else {
			// Growing copies s's elements into the new array.
			access(uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*sz, site, opRead)
		}
	}
	return append(s, x...)
}

// AppendString is append(b, s...) for a string s.
func AppendString[S ~[]byte](site uint64, b S, s string) S {
	if len(s) > 0 {
		if cap(b)-len(b) >= len(s) {
			access(uintptr(unsafe.Pointer(unsafe.SliceData(b)))+uintptr(len(b)), uintptr(len(s)), site, opWrite)
		} else {
			access(uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), site, opRead)
		}
	}
	return append(b, s...)
}
