// A race on a field that a function writes in its versioned tail, after
// its lock, and main reads without the lock: reported from the tail's
// instrumented copy, on the tail's line.
package main

import (
	"fmt"
	"sync"
)

type cache struct {
	mu    sync.Mutex
	m     map[int]int
	hits  int
	miss  int
	total int
}

// put locks, and then only computes until it returns: its statements
// after the lock are versioned.
func (c *cache) put(k, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		c.hits++
	} else {
		c.miss++
	}
	c.m[k] = v
	c.total += v // RACE
}

func main() {
	c := &cache{m: map[int]int{}}
	done := make(chan bool)
	go func() {
		c.put(1, 2)
		done <- true
	}()
	t := c.total // RACE
	<-done
	fmt.Println(t >= 0, len(c.m))
}
