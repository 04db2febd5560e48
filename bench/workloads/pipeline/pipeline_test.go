package pipeline

import "testing"

// BenchmarkRun pushes 20000 items through the pipeline with 4
// transformers.
func BenchmarkRun(b *testing.B) {
	for b.Loop() {
		if Run(20000, 4) == 0 {
			b.Fatal("zero total")
		}
	}
}
