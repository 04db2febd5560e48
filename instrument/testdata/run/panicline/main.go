// A panic after many rewritten statements reports its original line.
package main

import (
	"fmt"
	"sync"
)

var g []int

func f(p *[]int, i int) int {
	var mu sync.Mutex
	mu.Lock()
	defer mu.Unlock()
	ch := make(chan int, 1)
	ch <- i
	go func() {}()
	select {
	case v := <-ch:
		i += v
	default:
	}
	return (*p)[i] // PANIC
}

func main() {
	g = make([]int, 3)
	fmt.Println(f(&g, 0))
	fmt.Println(f(&g, 5))
}
