// Counted loops whose hooks are hoisted into range hooks before the loop
// record exactly the elements they access: goroutines working on
// disjoint parts of one slice do not race, even within an 8-byte word; a
// loop that runs out of its slice panics as the original does and claims
// nothing beyond; a strided loop is not taken for a contiguous one.
package main

import (
	"fmt"
	"sync"
)

type Matrix struct {
	N int
	A []float64
}

// rows adds a×b's rows i0 to i1 to c's.
func rows(c, a, b *Matrix, i0, i1 int) {
	n := c.N
	for i := i0; i < i1; i++ {
		for k := 0; k < n; k++ {
			aik := a.A[i*n+k]
			for j := 0; j < n; j++ {
				c.A[i*n+j] += aik * b.A[k*n+j] // NORACE
			}
		}
	}
}

func fill(b []byte, lo, hi int, x byte) {
	for j := lo; j < hi; j++ {
		b[j] = x + byte(j) // NORACE
	}
}

// overrun writes s[lo:hi] and panics when hi > len(s), as the original.
func overrun(s []int, lo, hi int) (err any) {
	defer func() { err = recover() }()
	for j := lo; j < hi; j++ {
		s[j] = j // NORACE
	}
	return nil
}

// column sums column j of the n×n matrix b.
func column(b []float64, n, j int) (t float64) {
	for k := 0; k < n; k++ {
		t += b[k*n+j] // NORACE
	}
	return t
}

// add adds row i of a to row i of out; it panics if there is no row i.
func add(out, a [][]int, i, n int) (err any) {
	defer func() { err = recover() }()
	for j := 0; j < n; j++ {
		out[i][j] += a[i][j] // NORACE
	}
	return nil
}

// shift moves s[1:n+1] to s[0:n], with a range over an int.
func shift(s []int, n int) (err any) {
	defer func() { err = recover() }()
	for i := range n {
		s[i] = s[i+1] // NORACE
	}
	return nil
}

func zero(m *Matrix, n int) {
	for j := 0; j < n; j++ {
		m.A[j] = 0
	}
}

func main() {
	const n = 8
	a, b, c := &Matrix{n, make([]float64, n*n)}, &Matrix{n, make([]float64, n*n)}, &Matrix{n, make([]float64, n*n)}
	for i := range a.A {
		a.A[i], b.A[i] = float64(i%5), float64(i%3)
	}
	d := make([]float64, n*n)
	buf := make([]byte, 13)
	ints := make([]int, 16)
	var wg sync.WaitGroup
	var err any
	var col float64
	wg.Add(7)
	go func() { defer wg.Done(); rows(c, a, b, 0, n/2) }()
	go func() { defer wg.Done(); rows(c, a, b, n/2, n) }()
	go func() { defer wg.Done(); fill(buf, 0, 5, 1) }()
	go func() { defer wg.Done(); fill(buf, 5, 13, 2) }()
	go func() { defer wg.Done(); err = overrun(ints[:10], 6, 14) }()
	go func() {
		defer wg.Done()
		ints[12] = 7 // NORACE: beyond the slice overrun writes
		d[2*n+1] = 1 // NORACE: column 1, not column 0
	}()
	go func() { defer wg.Done(); col = column(d, n, 0) }()
	wg.Wait()
	grid, ones := [][]int{make([]int, 3), make([]int, 3)}, [][]int{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	var errs [3]any
	wg.Add(3)
	for i := range 3 {
		go func() { defer wg.Done(); errs[i] = add(grid, ones, i, 3) }()
	}
	wg.Wait()
	fmt.Println(grid, errs)
	sh := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	wg.Add(2)
	go func() { defer wg.Done(); errs[0] = shift(sh[:5], 5) }()
	go func() { defer wg.Done(); sh[5] = 50 }() // NORACE: shift reads up to sh[4]
	wg.Wait()
	fmt.Println(sh, errs[0])
	zero(nil, 0)
	fmt.Println(c.A[0], c.A[n*n-1], buf, ints, err, col)
	func() {
		defer func() { fmt.Println(recover()) }()
		zero(nil, 1)
	}()
}
