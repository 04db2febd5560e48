// Package tails has functions whose last statements never block, which
// the rewriter versions, and functions it does not version, each for its
// reason.
package tails

import (
	"sync"
	"sync/atomic"
)

type cache struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	m     map[int]int
	hits  int
	miss  int
	calls atomic.Int64
	last  int
	ch    chan int
}

// get locks and then only computes, unlocking when it returns: the
// statements after the lock are versioned, the deferred unlock with them.
func (c *cache) get(k int) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	if ok {
		c.hits++
	} else {
		c.miss++
	}
	c.last = k
	return v, ok
}

// count never blocks: its whole body is versioned, and the plain copy
// keeps the atomic addition's hook.
func (c *cache) count(k int) int {
	c.calls.Add(1)
	c.hits += k
	c.miss -= k
	c.m[k] = k
	c.last = c.hits + c.miss
	return c.last
}

// peek unlocks before it returns, and sums in a loop that only computes,
// which keeps only its instrumented copy in the instrumented tail.
func (c *cache) peek(ks []int) int {
	c.rw.RLock()
	t := 0
	for _, k := range ks {
		t += c.m[k]
	}
	c.hits = t
	c.last = len(ks)
	c.rw.RUnlock()
	return t
}

// afterReceive receives in the middle: only the statements after the
// receive are versioned.
func (c *cache) afterReceive() int {
	c.hits++
	k := <-c.ch
	c.m[k] = c.hits
	c.miss = k
	c.last = c.miss + c.hits
	return c.last
}

// few has fewer than two hooks after its lock: not versioned.
func (c *cache) few() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// two has two hooks after its lock, the map field and the map, as a
// sharded map's Get has: versioned.
func (c *cache) two(k int) int {
	c.mu.Lock()
	v := c.m[k]
	c.mu.Unlock()
	return v
}

func (c *cache) lock() { c.mu.Lock() }

// callsLock calls a function that locks after its accesses: nothing
// after the call to version.
func (c *cache) callsLock() {
	c.hits++
	c.miss++
	c.last++
	c.m[0] = 1
	c.lock()
}

// redeclares assigns its result err with := in its tail: inside the
// if's blocks it would declare a new err. Not versioned.
func (c *cache) redeclares() (n int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hits++
	c.miss++
	c.last++
	n, err = c.m[0], nil
	m, err := c.m[1], error(nil)
	return n + m, err
}

// twice redeclares with := a variable that its tail declared: in the
// same block either way, so versioned.
func (c *cache) twice(k int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.m[k]
	b, ok := c.m[a]
	if ok {
		c.hits++
	}
	c.last = a + b
	return c.last
}

// jumps has a goto and its label after its lock: the plain copy's label
// is renamed.
func (c *cache) jumps(k int) int {
	c.mu.Lock()
	if k < 0 {
		goto out
	}
	c.hits++
out:
	c.miss++
	c.last++
	c.hits += c.m[k]
	c.mu.Unlock()
	return c.last
}

// jumpsIn jumps from before its lock to a label after it, and a goto
// cannot jump into a block: not versioned.
func (c *cache) jumpsIn(k int) int {
	if k < 0 {
		goto out
	}
	c.mu.Lock()
	c.hits++
	c.mu.Unlock()
out:
	c.miss++
	c.last++
	c.m[k] = k
	return c.last
}
