//go:build go1.21

// Loopvar_racy is the most common race of Go before 1.22: goroutines that
// read a range clause's variable, which the next iteration assigns. The
// build constraint gives this file go1.21's semantics, where the loop's
// variables are one per loop.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for _, v := range []int{1, 2, 3} { // race
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := v // race
			mu.Lock()
			sum += x
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println("done", sum > 0)
}
