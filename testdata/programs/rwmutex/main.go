// Rwmutex has readers that hold a read lock concurrently and a writer
// that takes the write lock.
package main

import (
	"fmt"
	"sync"
)

type cache struct {
	mu sync.RWMutex
	m  map[int]int
}

func (c *cache) get(k int) (int, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cache) put(k, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

func main() {
	c := &cache{m: map[int]int{}}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			c.put(i, i*i)
		}()
		go func() {
			defer wg.Done()
			c.get(i)
		}()
	}
	wg.Wait()
	v, _ := c.get(3)
	fmt.Println(v)
}
