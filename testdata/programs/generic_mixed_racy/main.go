// Generic_mixed_racy writes an element of a slice from two goroutines
// through a generic function whose type parameter may be an array or a
// slice. Such a type parameter has no core type, but its elements are
// addressable memory like any other, and when it is a slice they are
// shared.
package main

import (
	"fmt"
	"sync"
)

func set[T [2]int | []int](x T) {
	x[0] = 1 // race
}

func main() {
	s := make([]int, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		set(s)
	}()
	set(s)
	wg.Wait()
	fmt.Println(s)
}
