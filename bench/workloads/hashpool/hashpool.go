// Package hashpool hashes blocks of data with a fixed pool of worker
// goroutines fed through a channel; the hash function (FNV-1a over 64-bit
// words with a final mix) is ordinary user code.
package hashpool

import "sync"

// Hash returns a 64-bit hash of b.
func Hash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// HashAll hashes every block with workers goroutines and returns the
// hashes in block order.
func HashAll(blocks [][]byte, workers int) []uint64 {
	out := make([]uint64, len(blocks))
	jobs := make(chan int, workers*4)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = Hash(blocks[i])
			}
		}()
	}
	for i := range blocks {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}
