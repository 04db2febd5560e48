// Package versioning has loops and functions that the instrumenter emits
// in two copies, with and without hooks, and loops and functions it must
// not.
package versioning

import (
	"errors"
	"sync"
)

var (
	g  []int
	m  = map[string]int{}
	mu sync.Mutex
	ch = make(chan int, 1)
)

// Versioned: the loops only compute.
func sum() (t int) {
	for i := 0; i < len(g); i++ {
		t += g[i]
	}
	for _, v := range g {
		t += v
	}
	for k := range m {
		t += len(k)
	}
	for i := range g {
		for j := range g {
			g[i] += min(g[j], 3)
		}
	}
	return t
}

func work() {}

func step(i int) int { work(); return i + 1 }

func lock() { mu.Lock() }

func callsLock() { work(); lock() }

// Versioned too: the loops return, break to a label outside them, or
// call functions that only compute. The function is not, since it locks
// before it returns.
func leaves(n int) int {
	for i := range g {
		g[i]++
		work()
	}
	for i := range g {
		if g[i] < 0 {
			return i
		}
	}
outer:
	for i := range g {
		for range g {
			if g[i] > 2 {
				break outer
			}
		}
	}
	for i := 0; i < n; i = step(i) {
		g[i] = i
	}
	lock()
	return 0
}

// Not versioned: each loop synchronizes, calls a function that does, has a
// label in it, a function literal or a channel operation, or has no
// hook; a labeled loop is not versioned itself.
func mixed(n int) int {
	for i := 0; i < n; i++ {
		mu.Lock()
		g[i]++
		mu.Unlock()
	}
	for i := range g {
		g[i]++
		callsLock()
	}
	for i := range g {
	inner:
		for range g {
			if g[i] > 2 {
				break inner
			}
		}
	}
	for i := range g {
		f := func() { g[i]++ }
		f()
	}
	for i := range g {
		g[i] = <-ch
	}
	for v := range ch {
		g[0] = v
	}
	for i := range g {
		if g[i] > 0 {
			goto done
		}
	}
done:
	x := 0
	for i := 0; i < n; i++ {
		x += i
	}
	return x
}

type P struct {
	a, b []byte
	n, m int
}

// Versioned as a whole: the function only computes until it returns.
func (p *P) parse(s []byte) error {
	if len(s) < 2 {
		return errors.New("short")
	}
	p.a = s[:1]
	p.b = s[1:]
	p.n += len(p.a)
	p.m = len(p.b)
	return nil
}

func count(s []byte) (int, error) { return len(s), nil }

// Not versioned as a whole: fewer than four hooks, a call of a function
// that does not only compute, or a short variable declaration that
// assigns a result.
func (p *P) size() int { return p.n + len(p.a) + len(p.b) }

func (p *P) reset() {
	p.n = 0
	work()
	lock()
}

func (p *P) skip() {
	if p.n > 0 {
		goto out
	}
	p.a = nil
out:
	p.b = nil
}

func (p *P) measure(s []byte) (err error) {
	n, err := count(s)
	p.n = n
	p.a = s
	return
}
