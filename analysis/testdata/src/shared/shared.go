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

func intoShared(sh *T) {
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

func param(p *T, s []int, m map[int]int) {
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

func loadedFromParam(param *T) {
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
