// Capture_readonly hands goroutines variables that are never written
// after their initialization (parameters, := and var declarations, a
// struct and an array value, range variables, a type switch variable, a
// select case variable), and reads them from many goroutines at once.
// It is race-free: each goroutine writes only its own slot of results.
package main

import (
	"fmt"
	"sync"
)

type grid struct {
	w, h  int
	cells [4]int
}

func (g grid) area() int { return g.w * g.h }

func sum(n, step int, g grid, items []int) int {
	var wg sync.WaitGroup
	results := make([]int, len(items)+3)
	base := n * step
	var zero int
	weights := [4]int{1, 2, 3, 4}
	for i, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = base + zero + it + g.area() + g.cells[i%4] + weights[i%4] + n
		}()
	}
	var x any = 3
	switch y := x.(type) {
	case int:
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[len(items)] = y * g.w
		}()
	}
	ch := make(chan int, 1)
	ch <- 4
	select {
	case v := <-ch:
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[len(items)+1] = v * n
		}()
	}
	for k := range 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[len(items)+2] = k + step
		}()
	}
	wg.Wait()
	total := 0
	for _, r := range results {
		total += r
	}
	return total
}

func main() {
	fmt.Println(sum(3, 2, grid{w: 2, h: 3, cells: [4]int{1, 2, 3, 4}}, []int{10, 20, 30, 40, 50}))
}
