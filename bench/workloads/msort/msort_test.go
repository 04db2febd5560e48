package msort

import (
	"math/rand/v2"
	"slices"
	"testing"
)

const n = 1 << 18

// BenchmarkSort sorts n pseudo-random ints with 8 levels of forking.
func BenchmarkSort(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	orig := make([]int, n)
	for i := range orig {
		orig[i] = r.Int()
	}
	s := make([]int, n)
	for b.Loop() {
		copy(s, orig)
		Sort(s, 8)
	}
	if !slices.IsSorted(s) {
		b.Fatal("not sorted")
	}
}
