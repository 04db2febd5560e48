// Select_cond hands work over with select and waits on a sync.Cond.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	var (
		mu    sync.Mutex
		cond  = sync.NewCond(&mu)
		ready bool
		value int
	)
	go func() {
		value = 42
		mu.Lock()
		ready = true
		cond.Broadcast()
		mu.Unlock()
	}()
	mu.Lock()
	for !ready {
		cond.Wait()
	}
	mu.Unlock()

	results := make(chan int)
	quit := make(chan struct{})
	go func() {
		results <- value + 1
	}()
	got := 0
	select {
	case got = <-results:
	case <-quit:
	case <-time.After(time.Minute):
	}
	fmt.Println(value, got)
}
