// Package access has one access of each form that static and collide
// modes rewrite, and synchronization that they keep.
package access

import "sync"

type T struct {
	n int
	E
}

type E struct{ v int }

func (e E) Get() int { return e.v }

var (
	x, y int
	a    []int
	m    = map[string]int{}
	mu   sync.Mutex
	t    T
	p    *T
)

func f() int { return 1 }

func accesses() (r int) {
	x = y + 1
	x++
	a[0] = x
	t.n = p.n
	*&y = 2
	m["k"] = len(m) + m["j"]
	a = append(a, x)
	copy(a, a[1:])
	s := string([]byte{1})
	_ = s
	for i, v := range a {
		_, _ = i, v
	}
	for k := range m {
		_ = k
	}
	x = f()
	m["k"] = f()
	delete(m, "k")
	mu.Lock()
	y = p.Get()
	mu.Unlock()
	go func() { r = x }()
	return
}
