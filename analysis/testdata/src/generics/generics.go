// Package generics holds accesses through variables of type parameter
// type, with array, struct and pointer core types, shared through
// slices, pointers and closures, each next to the same code without the
// sharing. Annotations as in package local: "// local: e; shared: f"
// says that the access expressions with source text e on the line must
// be local and those with text f must not. The instrumenter's tests
// (instrument.TestGenericHooks) check the same annotations against the
// hooks it emits: a shared access must get one, a local one must not.
package generics

func use(any) {}

func fill(s []int) { s[0] = 1 }

// Array core type.

func arraySlicedShared[A ~[4]int](a A) int {
	s := a[:]
	go func() { s[0] = 1 }()
	return a[0] // shared: a[0]
}

func arraySlicedLocal[A ~[4]int](a A) int {
	s := a[:]
	s[0] = 1    // local: s[0]
	return a[0] // local: a[0]
}

func arrayPointerShared[A ~[4]int](a A) int {
	p := &a[1]
	go func() { *p = 1 }()
	return a[1] // shared: a[1]
}

func arrayPointerLocal[A ~[4]int](a A) int {
	p := &a[1]
	*p = 2      // local: *p
	return a[1] // local: a[1]
}

func arrayArgumentShared[A ~[4]int](a A) int {
	go fill(a[:])
	return a[0] // shared: a[0]
}

func arrayArgumentLocal[A ~[4]int](a A) int {
	fill(a[:])
	return a[0] // local: a[0]
}

func arrayClosureShared[A ~[4]int](a A) int {
	go func() { a[2] = 1 }() // shared: a[2]
	return a[2]              // shared: a[2]
}

func arrayClosureReadOnly[A ~[4]int](a A) {
	go func() { use(a[2]) }() // local: a[2]
	use(a[3])                 // local: a[3]
}

func arrayUnaliased[A ~[4]int](a A) int {
	a[0] = 1           // local: a[0]
	return a[0] + a[1] // local: a[0]; a[1]
}

// Struct core type: a type parameter has no fields, so the variable is
// accessed as a whole.

func structPointerShared[S ~struct{ n int }](s S) S {
	p := &s
	go func() { *p = S{n: 1} }()
	return s // shared: s
}

func structPointerLocal[S ~struct{ n int }](s S) S {
	p := &s
	*p = S{n: 2} // local: *p
	return s     // local: s
}

func structClosureShared[S ~struct{ n int }](s S) S {
	go func() { s = S{} }() // shared: s
	return s                // shared: s
}

func structClosureReadOnly[S ~struct{ n int }](s S) {
	go func() { use(s) }() // local: s
}

func structSliceShared[S ~struct{ n int }](s S) S {
	ss := make([]S, 1)
	go func() { ss[0] = s }()
	return ss[0] // shared: ss[0]
}

func structSliceLocal[S ~struct{ n int }](s S) S {
	ss := make([]S, 1)
	ss[0] = s    // local: ss[0]
	return ss[0] // local: ss[0]
}

// Pointer core type.

func pointerParameter[P ~*int](p P) int {
	return *p // shared: *p; local: p
}

func pointerAllocatedLocal[P ~*int]() int {
	p := P(new(int))
	*p = 1    // local: *p
	return *p // local: *p
}

func pointerSliceShared[P ~*int]() int {
	q := P(new(int))
	ps := []P{q}
	go func() { *ps[0] = 1 }()
	return *q // shared: *q
}

func pointerClosureShared[P ~*int]() int {
	q := P(new(int))
	go func() { *q = 1 }() // shared: *q; local: q
	return *q              // shared: *q
}

func pointerToArrayParameter[P ~*[4]int](p P) int {
	return p[0] // shared: p[0]
}

func pointerToArrayAllocatedLocal[P ~*[4]int]() int {
	q := P(new([4]int))
	q[0] = 1    // local: q[0]
	return q[0] // local: q[0]
}

// A type set of arrays and slices: an element may be a slice's, which
// the variable does not hold.

func mixedElements[T [2]int | []int](x T) int {
	x[0] = 1    // shared: x[0]
	return x[1] // shared: x[1]
}

func mixedVariable[T [2]int | []int](x T) T {
	var y T
	y = x    // local: y
	return y // local: y
}

// The body of a range over a function is a closure that the iterator
// may call on another goroutine, unless the analysis sees it does not.

func rangeAnywhere[E any](seq func(func(E) bool)) int {
	n := 0
	for range seq {
		n++ // shared: n
	}
	return n // shared: n
}

func inPlace(yield func(int) bool) {
	yield(0)
}

func rangeInPlace() int {
	n := 0
	for range inPlace {
		n++ // local: n
	}
	return n // local: n
}
