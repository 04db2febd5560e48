// Package local holds accesses the analysis must find goroutine-local.
// Each "// local:" comment lists, separated by ";", access expressions on
// its line that must be reported local; "// shared:" lists those that
// must not be.
package local

import "bytes"

type T struct {
	a    int
	next *T
	arr  [4]int
}

func (t *T) incr() { t.a++ } // shared: t.a

func plain(n int) int {
	x := 1
	x++          // local: x
	n += x       // local: n; x
	return x + n // local: x; n
}

func structVar() int {
	var s T
	s.a = 1               // local: s.a; s
	s.arr[2] = s.a        // local: s.arr[2]; s.arr; s.a
	return s.a + s.arr[1] // local: s.a; s.arr[1]
}

func arrayVar(i int) int {
	var a [4]int
	a[i] = 1    // local: a[i]; a
	return a[0] // local: a[0]
}

func newObj() int {
	p := new(T)
	p.a = 1  // local: p.a; p
	*p = T{} // local: *p
	q := &T{}
	q.a++               // local: q.a
	q.next = p          // local: q.next
	q.next.a = 2        // local: q.next.a; q.next
	return p.a + (*q).a // local: p.a; (*q).a; *q
}

func sliceMap(n int) int {
	s := make([]int, n)
	s[0] = 1         // local: s[0]
	s = append(s, 2) // local: s
	m := map[int]int{}
	m[1] = s[1]          // local: m[1]; s[1]
	m[2]++               // local: m[2]
	return m[1] + len(s) // local: m[1]
}

func syncClosure() int {
	c := 0
	f := func() { c++ } // local: c
	f()
	func() { c += 2 }() // local: c
	return c            // local: c
}

func deferred() (n int) {
	x := &T{}
	defer func() { n = x.a }() // local: n; x.a
	x.a = 3                    // local: x.a
	return 1
}

func fill(p *[4]int) { p[0] = 1 } // local: p[0]

func helper() int {
	var buf [4]int
	fill(&buf)
	return buf[0] // local: buf[0]
}

func newT() *T { return &T{} }

func constructor() int {
	t := newT()
	t.a = 1    // local: t.a
	return t.a // local: t.a
}

func pure() int {
	b := make([]byte, 10)
	i := bytes.IndexByte(b, 'x')
	b[0] = 'y' // local: b[0]
	return i
}

var g *T

func copyOut() int {
	c := *g    // local: c; g; shared: *g
	c.a = 1    // local: c.a
	return c.a // local: c.a
}

func methodValue() int {
	v := &T{}
	f := v.incr
	f()
	v.incr()
	return v.a // local: v.a
}

func loopVar(xs []int) int {
	sum := 0
	for i := 0; i < len(xs); i++ {
		p := &sum
		*p += xs[i] // local: *p; shared: xs[i]
	}
	for _, x := range xs {
		func() { sum += x }() // local: sum; x
	}
	return sum // local: sum
}

func Generic[X any](x X) X {
	v := x
	w := &v
	*w = x   // local: *w
	return v // local: v
}

func seqSync(yield func(int) bool) {
	for i := 0; i < 3 && yield(i); i++ {
	}
}

func rangeFunc() int {
	n := 0
	for i := range seqSync {
		n += i // local: n; i
	}
	return n // local: n
}

func closureSlice() int {
	x := 0
	fs := []func(){func() { x++ }} // local: x
	for _, f := range fs {
		f()
	}
	return x // local: x
}

func targets(n int) int {
	s := make([]int, n)
	m := map[int]int{}
	sum := 0
	for _, v := range s { // local-target: s
		sum += v
	}
	s = append(s, sum) // local-target: s
	copy(s, s[1:])     // local-target: s
	for k := range m { // local-target: m
		delete(m, k) // local-target: m
	}
	p := new(T)
	return sum + p.a + len(s) // local-target: p
}

func touch(p *T) { p.a++ } // local: p.a

func touchLocals() int {
	l := &T{}
	touch(l)
	var v T
	touch(&v)
	return l.a + v.a // local: l.a; v.a
}
