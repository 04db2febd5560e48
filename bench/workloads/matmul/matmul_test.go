package matmul

import "testing"

// BenchmarkMul multiplies two 192×192 matrices in 32×32 blocks with 4
// goroutines.
func BenchmarkMul(b *testing.B) {
	const n = 192
	x, y, z := New(n), New(n), New(n)
	for i := range x.A {
		x.A[i] = float64(i%7) - 3
		y.A[i] = float64(i%5) - 2
	}
	for b.Loop() {
		Mul(z, x, y, 32, 4)
	}
	if z.A[0] == 0 && z.A[n*n-1] == 0 {
		b.Fatal("zero product")
	}
}
