// Cold is racegen's corpus for FRESA (make eval-fresa, docs/fresa.md):
// races in cold code beside hot loops over shared memory, as services
// have them. Two workers run the same hot loop, race-free: each adds a
// read-shared lookup table into its own shard of a shared array, round
// after round. Between rounds, a few times in a run, both run cold code
// that races: a configuration value written by one and read by the
// other, a lazily built cache, a progress marker, an error recorded by
// both, and statistics summed by both at the end. A line that takes part
// in a race ends in "// race: NAME", as in ../main.go.
//
// Each round also locks and unlocks a mutex private to its worker, which
// orders nothing between the workers: it gives Pacer's controller the
// synchronization it paces its periods by, as a service's requests do.
//
// The cold state is package-level, so that its history is not dropped
// by a GC cycle between the two accesses of a race: what is measured is
// the sampling, not heap reuse.
package main

import (
	"errors"
	"fmt"
	"sync"
)

const (
	workers   = 2
	tableSize = 1 << 10
	shardSize = 1 << 12
	// rounds is the number of passes of each worker over its shard; the
	// run's uninstrumented time is about proportional to it.
	rounds = 60000
)

var (
	table [tableSize]int64 // read-shared: written before the workers start
	data  [workers][]int64 // one shard per worker
	mu    [workers]sync.Mutex

	limit    int            // configuration, reloaded by worker 0
	cache    map[string]int // built lazily by whichever worker comes first
	progress int            // worker 0's round, read by worker 1
	lastErr  error          // the last error either worker saw
	total    int64          // both workers' sums
)

func main() {
	for i := range table {
		table[i] = int64(i % 7)
	}
	for w := range data {
		data[w] = make([]int64, shardSize)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	wg.Wait()
	fmt.Println("done")
}

// work is one worker: the hot loop, with the cold code at fixed rounds.
func work(w int) {
	shard := data[w]
	var sum int64
	for r := range rounds {
		mu[w].Lock()
		mu[w].Unlock()
		for i := range shard {
			shard[i] = mix(shard[i] + table[i&(tableSize-1)])
		}
		sum += shard[r%shardSize]
		switch r {
		case rounds / 5:
			reload(w, r)
		case 2 * rounds / 5:
			lookup(w, "k")
		case 3 * rounds / 5:
			fail(w)
		}
		if r%(rounds/8) == 0 {
			report(w, r)
		}
	}
	total += sum // race: stats
}

// mix scrambles v: the work the hot loop does between its accesses.
func mix(v int64) int64 {
	for range 3 {
		v = v*6364136223846793005 + 1442695040888963407
		v ^= v >> 29
	}
	return v
}

// reload reloads the configuration in worker 0 and reads it in worker 1.
func reload(w, r int) {
	if w == 0 {
		limit = r // race: config
		return
	}
	if limit > rounds { // race: config
		panic("limit")
	}
}

// lookup builds the cache on first use.
func lookup(w int, k string) int {
	if cache == nil { // race: lazy
		cache = map[string]int{k: w} // race: lazy
	}
	return w
}

// fail records an error.
func fail(w int) {
	lastErr = errors.New("worker failed") // race: lasterr
}

// report publishes worker 0's progress and reads it in worker 1.
func report(w, r int) {
	if w == 0 {
		progress = r // race: progress
		return
	}
	if progress < 0 { // race: progress
		panic("progress")
	}
}
