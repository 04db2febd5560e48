package hashpool

import "testing"

// BenchmarkHashAll hashes 256 blocks of 4 KiB with 4 workers.
func BenchmarkHashAll(b *testing.B) {
	blocks := make([][]byte, 256)
	for i := range blocks {
		blocks[i] = make([]byte, 4096)
		for j := range blocks[i] {
			blocks[i][j] = byte(i*31 + j*7)
		}
	}
	var sum uint64
	for b.Loop() {
		for _, h := range HashAll(blocks, 4) {
			sum += h
		}
	}
	if sum == 0 {
		b.Fatal("zero sum")
	}
}
