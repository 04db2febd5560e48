package shardmap

import (
	"sync"
	"testing"
)

// BenchmarkMixed runs 8 goroutines, each doing 20000 operations (three
// gets to one add) on keys from a 4096-key space over 32 shards.
func BenchmarkMixed(b *testing.B) {
	for b.Loop() {
		m := New(32)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				x := uint64(g + 1)
				var sink uint64
				for i := range 20000 {
					x ^= x << 13
					x ^= x >> 7
					x ^= x << 17
					k := x % 4096
					if i%4 == 0 {
						m.Add(k, 1)
					} else {
						sink += m.Get(k)
					}
				}
				_ = sink
			}()
		}
		wg.Wait()
		if m.Len() == 0 {
			b.Fatal("empty map")
		}
	}
}
