// Package shared holds accesses the analysis must not find
// goroutine-local. Annotations as in package local.
package shared

import (
	"fmt"
	"sort"
	"sync"
	"unsafe"
)

type T struct {
	a    int
	next *T
}

func (t *T) incr() { t.a++ } // shared: t.a

type I interface{ M() }

func (t *T) M() {}

var global *T
var gslice []*T
var gfn func()
var gu uintptr

func use(*T) {}

func goClosure() int {
	x := 0
	go func() { x = 1 }() // shared: x
	x = 2                 // shared: x
	return x              // shared: x
}

func goArg() {
	p := &T{}
	go use(p)
	p.a = 1 // shared: p.a; local: p
}

func toGlobal() {
	p := &T{}
	global = p // shared: global
	p.a = 1    // shared: p.a
}

func toChan(ch chan *T) {
	p := &T{}
	ch <- p
	p.a = 1 // shared: p.a
}

func toUnknown() {
	p := &T{}
	fmt.Println(p)
	p.a = 1 // shared: p.a
}

func Returned() *T {
	p := &T{}
	p.a = 1 // shared: p.a
	return p
}

func IntoShared(sh *T) {
	p := &T{}
	sh.next = p // shared: sh.next
	p.a = 1     // shared: p.a
}

func methodValueGo() {
	v := &T{}
	go v.incr()
	v.a = 1 // shared: v.a
	w := &T{}
	f := w.incr
	go f()
	w.a = 1 // shared: w.a
}

func rangeGo(xs []int) {
	for _, it := range xs {
		go func() { _ = it }() // shared: it
		it++                   // shared: it
	}
	for i := 0; i < 3; i++ {
		go func() { i++ }() // shared: i
	}
}

func aliasShared(c bool) int {
	var l T
	p := &l
	if c {
		p = global
	}
	p.a = 1 // shared: p.a
	q := global
	q.a = 2       // shared: q.a
	return (*p).a // shared: (*p).a; *p
}

func fromChan(ch chan []int) int {
	s := <-ch
	s[0] = 1    // shared: s[0]
	return s[1] // shared: s[1]
}

func copyOut() int {
	c := *global    // shared: *global
	c.next.a = 1    // shared: c.next.a; local: c.next
	return global.a // shared: global.a
}

func Param(p *T, s []int, m map[int]int) {
	p.a = 1  // shared: p.a
	s[0] = 1 // shared: s[0]
	m[0] = 1 // shared: m[0]
	*p = T{} // shared: *p
}

func closureToGlobal() {
	x := 0
	gfn = func() { x++ } // shared: x
	x++                  // shared: x
}

func closureToUnknown(s []int) {
	cnt := 0
	sort.Slice(s, func(i, j int) bool { cnt++; return s[i] < s[j] }) // shared: cnt; s[i]
	cnt++                                                            // shared: cnt
}

func mapEscapes() {
	m := map[int]*T{}
	p := &T{}
	m[0] = p // shared: m[0]
	go func() { _ = m }()
	p.a = 1 // shared: p.a
}

func viaUintptr() {
	p := &T{}
	gu = uintptr(unsafe.Pointer(p))
	p.a = 1 // shared: p.a
}

func boxEscapes() {
	p := &T{}
	box := &T{}
	box.next = p // shared: box.next
	go use(box)
	p.a = 1 // shared: p.a
}

func viaInterface() {
	v := &T{}
	var i I = v
	i.M()
	v.a = 1 // shared: v.a
}

func viaPanic() {
	p := &T{}
	defer func() { recover() }()
	p.a = 1 // shared: p.a
	panic(p)
}

func id(p *T) *T { return p }

func throughIdentity() {
	p := &T{}
	q := id(p)
	go use(q)
	p.a = 1 // shared: p.a
}

func spawn(p *T) { go use(p) }

func throughSpawn() {
	p := &T{}
	spawn(p)
	p.a = 1 // shared: p.a
}

func LoadedFromParam(param *T) {
	l := &T{}
	l.next = param
	l.next.a = 1 // shared: l.next.a; local: l.next
}

func copyShared() {
	dst := make([]*T, 1)
	copy(dst, gslice)
	dst[0].a = 1 // shared: dst[0].a; local: dst[0]
	s := []*T{}
	s = append(s, global)
	s[0].a = 1 // shared: s[0].a; local: s[0]
}

func waitGroup() int {
	var wg sync.WaitGroup
	n := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		n++ // shared: n
	}()
	wg.Wait()
	return n // shared: n
}

func goroutineLocalThenShared() {
	go func() {
		p := &T{}
		p.a = 1
		global = p
		p.a = 2 // shared: p.a
	}()
}

func sliceOfLocal() {
	var arr [4]int
	s := arr[:]
	go func() { s[0] = 1 }() // shared: s[0]
	arr[1] = 2               // shared: arr[1]
}

func nestedClosureGo() {
	x := 0
	f := func() {
		go func() { x++ }() // shared: x
	}
	f()
	x++ // shared: x
}

func deferGo() {
	x := 0
	defer func() { go func() { x++ }() }() // shared: x
	x++                                    // shared: x
}

func setNext(l *T) { l.next = global } // local: l.next

func calleeWritesShared() int {
	l := &T{}
	o := &T{}
	l.next = o // local: l.next
	setNext(l)
	return l.next.a // shared: l.next.a; local: l.next
}

func Generic[X any](x X) X {
	v := x
	go func() { v = x }() // shared: v
	return v              // shared: v
}

func genericPtr[X any]() *T {
	p := &T{}
	go use(p)
	p.a = 1 // shared: p.a
	return nil
}

func useGeneric() {
	_ = genericPtr[int]()
}

func seq(yield func(*T) bool) {
	go yield(&T{})
}

func rangeFunc() {
	n := 0
	for p := range seq {
		n++     // shared: n
		p.a = 1 // shared: p.a
	}
}

func seqSync(yield func(int) bool) {
	for i := 0; i < 3 && yield(i); i++ {
	}
}

func rangeFuncGo() {
	n := 0
	for i := range seqSync {
		// i is never written after the range clause binds it: reading
		// it in another goroutine cannot race.
		go func() { n += i }() // shared: n; local: i
	}
}

func storeInLocalThenLoad(c bool) int {
	l := &T{}
	if c {
		l.next = global
	} else {
		l.next = &T{}
	}
	return l.next.a // shared: l.next.a; local: l.next
}

func closureInSlice() {
	x := 0
	fs := []func(){func() { x++ }} // shared: x
	for _, f := range fs {
		go f()
	}
}

func goMethodExpr() {
	v := &T{}
	go (*T).incr(v)
	v.a = 1 // shared: v.a
}

func DeferThenReturnClosure() func() {
	x := 0
	f := func() { x++ } // shared: x
	defer f()
	return f
}

func viaAppendAlias() {
	p := &T{}
	s := append([]*T(nil), p)
	gslice = s
	p.a = 1 // shared: p.a
}

func viaMapRange(m map[int]*T) {
	for _, v := range m {
		v.a = 1 // shared: v.a
	}
}

func arrayOfPointers() {
	var arr [2]*T
	arr[0] = global // local: arr[0]
	arr[0].a = 1    // shared: arr[0].a
}

func selectSend(ch chan *T) {
	p := &T{}
	select {
	case ch <- p:
	default:
	}
	p.a = 1 // shared: p.a
}

func newShared() *T { return &T{} }

func sharesResult() {
	go use(newShared())
}

func internalReturn() {
	p := newShared()
	p.a = 1 // shared: p.a
}

func Targets(s []int, m map[int]int) int {
	sum := 0
	for _, v := range s { // shared-target: s; local: s
		sum += v
	}
	s = append(s, sum) // shared-target: s; append(s, sum)
	for k := range m { // shared-target: m
		delete(m, k) // shared-target: m
	}
	l := make([]int, 3)
	go func() { l[0] = 1 }() // shared: l[0]
	copy(l, s)               // shared-target: l; s
	return sum
}

func touch(p *T) { p.a++ } // shared: p.a

func touchCallers(q *T) {
	l := &T{}
	touch(l)
	touch(global)
	go touch(l)
	l.a = 1 // shared: l.a
}

func touchLocalOnly(p *T) { p.a++ } // shared: p.a

func touchFromGo() {
	l := &T{}
	go func() { touchLocalOnly(l) }()
}

func touchParam(p *T) { p.a++ } // shared: p.a

func ExportedPassesParam(q *T) {
	touchParam(q)
}
