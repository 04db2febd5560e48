// Counted loops whose hooks are hoisted into range hooks before the loop:
// two goroutines' loops that overlap race, and the race is reported at
// the lines of the accesses; an element neither loop touches does not.
package main

import (
	"fmt"
	"sync"
)

type vec struct{ A []float64 }

func add(v *vec, lo, hi int, x float64) {
	for j := lo; j < hi; j++ {
		v.A[j] += x // RACE
	}
}

func sum(s []float64, lo, hi int) (t float64) {
	for j := lo; j <= hi; j++ {
		t += s[j] // RACE
	}
	return t
}

func main() {
	v := &vec{A: make([]float64, 16)}
	var wg sync.WaitGroup
	var t float64
	wg.Add(3)
	go func() {
		defer wg.Done()
		add(v, 0, 6, 1)
	}()
	go func() {
		defer wg.Done()
		t = sum(v.A, 5, 9)
	}()
	go func() {
		defer wg.Done()
		v.A[12] = 3 // NORACE: beyond both loops
	}()
	wg.Wait()
	fmt.Println(t >= 0, v.A[12])
}
