// Functions whose statements after a lock, a receive or nothing are
// versioned, called by several goroutines that synchronize through the
// lock, atomics, a channel and a WaitGroup: no race.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type cache struct {
	mu    sync.RWMutex
	m     map[int]int
	hits  int
	miss  int
	last  int
	calls atomic.Int64
}

// get read-locks, computes and unlocks, then returns.
func (c *cache) get(k int) (int, bool) {
	c.mu.RLock()
	v, ok := c.m[k]
	n := len(c.m)
	w := c.m[k+1]
	c.mu.RUnlock()
	return v + n - n + w - w, ok
}

// put locks, and then only computes until the deferred unlock.
func (c *cache) put(k, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		c.hits++
	} else {
		c.miss++
	}
	c.m[k] = v
	c.last = k
}

// count never blocks: the whole body is versioned, its atomic addition
// recorded in either copy.
func count(c *cache, n *int64, k int) int64 {
	c.calls.Add(1)
	a := atomic.AddInt64(n, int64(k))
	b := atomic.LoadInt64(n)
	s := []int64{a, b, 0}
	s[0] += s[1]
	s[1] -= s[0]
	s[2] = s[1]
	return s[0] + s[2]
}

func main() {
	c := &cache{m: map[int]int{}}
	var n int64
	var wg sync.WaitGroup
	work := make(chan int)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				c.put(k%7, k)
				c.get(k % 5)
				count(c, &n, k)
			}
		}()
	}
	for k := 0; k < 200; k++ {
		work <- k
	}
	close(work)
	wg.Wait()
	fmt.Println(c.hits+c.miss, len(c.m), c.calls.Load(), atomic.LoadInt64(&n))
}
