// Package pipeline is a four-stage channel pipeline: a generator, a
// fan-out of transformers, a filter and a summing sink, each stage its own
// goroutines connected by buffered channels.
package pipeline

import "sync"

// item is what flows through the pipeline.
type item struct {
	n    int
	vals [8]uint32
}

// Run pushes n items through the pipeline with workers transformers and
// returns the sink's total.
func Run(n, workers int) uint64 {
	gen := make(chan *item, 64)
	mid := make(chan *item, 64)
	out := make(chan *item, 64)
	go func() {
		for i := range n {
			it := &item{n: i}
			for j := range it.vals {
				it.vals[j] = uint32(i*8 + j)
			}
			gen <- it
		}
		close(gen)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range gen {
				transform(it)
				mid <- it
			}
		}()
	}
	go func() {
		wg.Wait()
		close(mid)
	}()
	go func() {
		for it := range mid {
			if it.vals[0]&1 == 0 {
				out <- it
			}
		}
		close(out)
	}()
	var total uint64
	for it := range out {
		for _, v := range it.vals {
			total += uint64(v)
		}
	}
	return total
}

// transform does some arithmetic on every value of it.
func transform(it *item) {
	for r := 0; r < 16; r++ {
		for j := range it.vals {
			v := it.vals[j]
			v ^= v << 13
			v ^= v >> 17
			v ^= v << 5
			it.vals[j] = v
		}
	}
}
