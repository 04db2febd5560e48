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

// rowsum adds rows 0 to 2 of the 3×n matrix m to acc; the write of acc's
// range does not change with k and is recorded once for the k loop, the
// read of m's row k is recorded for each k.
func rowsum(acc, m []int, n int) {
	for k := 0; k < 3; k++ {
		for j := 0; j < n; j++ {
			acc[j] += m[k*n+j] // RACE
		}
	}
}

type item struct{ vals [8]uint32 }

// scramble's loop over an array field is counted, the array's length
// being a constant, and its ranges are recorded once for the r loop.
func scramble(it *item) {
	for r := 0; r < 4; r++ {
		for j := range it.vals {
			it.vals[j] ^= it.vals[j]<<13 | 1 // RACE
		}
	}
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
	acc, m := make([]int, 4), make([]int, 12)
	wg.Add(3)
	go func() { defer wg.Done(); rowsum(acc, m, 4) }()
	go func() { defer wg.Done(); acc[3] = 1 }() // RACE
	go func() { defer wg.Done(); m[9] = 1 }()   // RACE: row 2, read when k is 2
	wg.Wait()
	it := new(item)
	wg.Add(2)
	go func() { defer wg.Done(); scramble(it) }()
	go func() { defer wg.Done(); it.vals[7] = 2 }() // RACE
	wg.Wait()
}
