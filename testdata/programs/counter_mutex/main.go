// Counter_mutex increments a counter from many goroutines under a mutex.
package main

import (
	"fmt"
	"sync"
)

type counter struct {
	sync.Mutex
	n int
}

func (c *counter) inc() {
	c.Lock()
	defer c.Unlock()
	c.n++
}

func main() {
	c := new(counter)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				c.inc()
			}
		}()
	}
	wg.Wait()
	fmt.Println(c.n)
}
