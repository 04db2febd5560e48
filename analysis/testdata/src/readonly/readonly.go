// Package readonly holds variables that are never written after their
// initialization, whose accesses the analysis must find local even when a
// goroutine reads them through a closure, and variables that narrowly
// miss that rule, whose accesses it must not. Annotations as in package
// local.
package readonly

import (
	"errors"
	"sync"
)

type T struct {
	a   int
	arr [4]int
	p   *T
	mu  sync.Mutex
}

func (t *T) incr()      { t.a++ }      // shared: t.a
func (t T) get() int    { return t.a } // local: t.a
func use(...any)        {}
func two() (int, error) { return 0, nil }

// Eligible: declared once, only read afterwards.

func params(n, bs int, s []int) {
	go func() {
		use(n+bs, s[0]) // local: n; bs; s; shared: s[0]
	}()
}

func defined() {
	x := 1
	var y int
	var z = 2
	go func() {
		use(x, y, z) // local: x; y; z
	}()
	use(x) // local: x
}

func structValue() {
	v := T{a: 1}
	go func() {
		use(v.a, v.arr[1], v.get()) // local: v.a; v.arr[1]; v.arr; v
	}()
}

func arrayValue(i int) {
	a := [3]int{1, 2, 3}
	go func() {
		use(a[i], a) // local: a[i]; a; i
	}()
}

func pointerValue() {
	p := &T{}
	go func() {
		p.a = 1 // local: p; shared: p.a
	}()
}

func receiver(t T) {
	go func() {
		use(t.a, t.p.a) // local: t.a; t.p; shared: t.p.a
	}()
}

func (t T) valueMethod() {
	go func() {
		use(t.a) // local: t.a
	}()
}

func rangeValue(s []int) {
	for i, v := range s {
		go func() {
			use(i, v) // local: i; v
		}()
	}
}

func rangeInt(n int) {
	for i := range n {
		go func() {
			use(i) // local: i
		}()
	}
}

func rangeChan(ch chan int) {
	for v := range ch {
		go func() {
			use(v) // local: v
		}()
	}
}

func typeSwitch(x any) {
	switch y := x.(type) {
	case int:
		go func() {
			use(y) // local: y
		}()
	}
}

func selectDefine(ch chan int) {
	select {
	case v, ok := <-ch:
		go func() {
			use(v, ok) // local: v; ok
		}()
	}
}

func ifDefine(m map[int]int) {
	if v, ok := m[1]; ok {
		go func() {
			use(v) // local: v
		}()
	}
}

func loopBound(n int) {
	for i, j := 0, n; i < j; i++ {
		go func() {
			use(i, j) // shared: i; local: j
		}()
	}
}

func nested(x int) {
	go func() {
		go func() {
			use(x) // local: x
		}()
	}()
}

func generic[E any](x E) {
	go func() {
		use(x) // local: x
	}()
}

// Not eligible: written after the declaration, or address taken.

func writtenAfterGo() {
	x := 0
	go func() {
		use(x) // shared: x
	}()
	x = 1 // shared: x
}

func writtenInClosure() {
	x := 0
	go func() {
		x++ // shared: x
	}()
	use(x) // shared: x
}

func writtenBefore() {
	x := 0
	f := func() { x = 1 } // shared: x
	f()
	go func() {
		use(x) // shared: x
	}()
}

func declaredThenAssigned() {
	var x int
	x = 1 // shared: x
	go func() {
		use(x) // shared: x
	}()
}

func addressTaken() {
	x := 0
	p := &x
	go func() {
		use(x) // shared: x
	}()
	*p = 1
}

func addressOfField() {
	var v T
	p := &v.a
	go func() {
		use(v.arr[0]) // shared: v.arr[0]
	}()
	*p = 1
}

func pointerMethod() {
	var v T
	go func() {
		use(v.a) // shared: v.a
	}()
	v.incr()
}

func pointerMethodValue() {
	var v T
	f := v.incr
	go func() {
		use(v.a) // shared: v.a
	}()
	f()
}

func pointerMethodOfField() {
	var v T
	go func() {
		use(v.a) // shared: v.a
	}()
	v.mu.Lock()
}

func fieldWrite() {
	var v T
	go func() {
		use(v.a) // shared: v.a
	}()
	v.a = 1 // shared: v.a
}

func elementOfFieldWrite() {
	var v T
	go func() {
		use(v.a) // shared: v.a
	}()
	v.arr[2]++ // shared: v.arr[2]
}

func elementWrite() {
	var a [2]int
	go func() {
		use(a[0]) // shared: a[0]
	}()
	a[1] = 2 // shared: a[1]
}

func arraySliced() {
	var a [2]int
	s := a[:]
	go func() {
		use(a[0]) // shared: a[0]
	}()
	s[0] = 1
}

func namedResult() (r int) { // shared: r
	go func() {
		use(r) // shared: r
	}()
	return 1
}

func selectAssign(ch chan int) {
	var v int
	select {
	case v = <-ch: // shared: v
	}
	go func() {
		use(v) // shared: v
	}()
}

func rangeAssign(s []int) {
	var v int
	for _, v = range s { // shared: v
		go func() {
			use(v) // shared: v
		}()
	}
}

func redeclared() {
	_, err := two()
	go func() {
		use(err) // shared: err
	}()
	n, err := two() // shared: err
	use(n)
}

func loopVar(n int) {
	for i := 0; i < n; i++ {
		go func() {
			use(i) // shared: i
		}()
	}
}

func genericArray[A ~[2]int](a A) {
	go func() {
		use(a[0]) // shared: a[0]
	}()
	a[1] = 3 // shared: a[1]
}

func genericIndexable[S interface{ ~[2]int | ~[]int }](s S) {
	go func() {
		use(s[0]) // shared: s[0]
	}()
	s[1] = 3 // shared: s[1]
}

// A named result only a deferred closure captures stays local, for the
// writes of return statements too.
func deferredResult() (err error) { // local: err
	defer func() {
		if err != nil { // local: err
			err = nil // local: err
		}
	}()
	return errors.New("x")
}

// A package-level variable that a function writes (package globals has
// the ones that qualify).
var global = errors.New("x")

func packageLevel() {
	go func() {
		use(global) // shared: global
	}()
	global = nil // shared: global
}
