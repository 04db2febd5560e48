package ops

import (
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

// word and words are globals so that every access is to shared memory,
// which both detectors instrument.
var (
	word  uint64
	words = make([]uint64, 1<<20) // 8 MiB, more than the caches hold
)

// BenchmarkSameWord increments one word: after the first iteration each
// access repeats one made in the same epoch.
func BenchmarkSameWord(b *testing.B) {
	for b.Loop() {
		word++
	}
}

// BenchmarkSweep increments the words of an 8 MiB slice in turn, so that
// each access finds history a million accesses old, out of the caches.
func BenchmarkSweep(b *testing.B) {
	i := 0
	for b.Loop() {
		words[i&(len(words)-1)]++
		i++
	}
}

// BenchmarkOtherGoroutine increments words that another goroutine wrote
// last, ordered before by a WaitGroup: each access finds another
// goroutine's epoch, checked against the clock. The other goroutine's
// writes, once per pass over the words, are not timed.
func BenchmarkOtherGoroutine(b *testing.B) {
	const n = 4096
	buf := make([]uint64, n)
	refill := func() {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range buf {
				buf[i] = uint64(i)
			}
		}()
		wg.Wait()
	}
	refill()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%n == 0 && i > 0 {
			b.StopTimer()
			refill()
			b.StartTimer()
		}
		buf[i%n]++
	}
}

// BenchmarkLockUnlock locks and unlocks an uncontended mutex.
func BenchmarkLockUnlock(b *testing.B) {
	var mu sync.Mutex
	for b.Loop() {
		mu.Lock()
		mu.Unlock()
	}
}

// BenchmarkChanSendRecv sends on a buffered channel and receives.
func BenchmarkChanSendRecv(b *testing.B) {
	c := make(chan int, 1)
	for b.Loop() {
		c <- 1
		<-c
	}
}

// BenchmarkAtomicAdd adds to a counter that every goroutine of the
// benchmark adds to, as programs count requests or bytes: each add is a
// read-modify-write, which releases and acquires, after another
// goroutine's.
func BenchmarkAtomicAdd(b *testing.B) {
	var n atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			n.Add(1)
		}
	})
}

// BenchmarkGo starts a goroutine and waits for it.
func BenchmarkGo(b *testing.B) {
	var wg sync.WaitGroup
	for b.Loop() {
		wg.Add(1)
		go wg.Done()
	}
	wg.Wait()
}

// BenchmarkPipeWriteRead writes a byte to a pipe and reads it back: two
// system calls, whose annotations in package syscall release and acquire
// the one object that stands for all I/O, and under racegen also bring
// its count of GC cycles up to date (docs/runtime.md, "GC generations and
// memory reuse").
func BenchmarkPipeWriteRead(b *testing.B) {
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	buf := make([]byte, 1)
	for b.Loop() {
		if _, err := w.Write(buf); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Read(buf); err != nil {
			b.Fatal(err)
		}
	}
}
