// Quickstart is racegen's first example: two goroutines increment a
// counter without a lock.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	count := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			count++ // both goroutines read and write count unordered
		}()
	}
	wg.Wait()
	fmt.Println("count:", count)
}
