// Package matmul multiplies square matrices in blocks, one goroutine per
// band of block rows.
package matmul

import "sync"

// Matrix is an n×n matrix of float64 in row-major order.
type Matrix struct {
	N int
	A []float64
}

// New returns an n×n zero matrix.
func New(n int) *Matrix { return &Matrix{N: n, A: make([]float64, n*n)} }

// Mul sets c to a×b using blocks of bs×bs and workers goroutines, each
// owning a contiguous band of c's block rows.
func Mul(c, a, b *Matrix, bs, workers int) {
	n := c.N
	clear(c.A)
	rows := (n + bs - 1) / bs
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := rows*w/workers, rows*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			for bi := lo; bi < hi; bi++ {
				for bk := 0; bk < n; bk += bs {
					for bj := 0; bj < n; bj += bs {
						block(c, a, b, bi*bs, bk, bj, bs)
					}
				}
			}
		}()
	}
	wg.Wait()
}

// block adds the product of a's block at (i0, k0) and b's block at
// (k0, j0) to c's block at (i0, j0).
func block(c, a, b *Matrix, i0, k0, j0, bs int) {
	n := c.N
	for i := i0; i < min(i0+bs, n); i++ {
		for k := k0; k < min(k0+bs, n); k++ {
			aik := a.A[i*n+k]
			for j := j0; j < min(j0+bs, n); j++ {
				c.A[i*n+j] += aik * b.A[k*n+j]
			}
		}
	}
}
