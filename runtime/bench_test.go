package runtime_test

import (
	"sync"
	"testing"
	"unsafe"

	rt "github.com/racegen/racegen/runtime"
)

// Each detector benchmark is paired with the uninstrumented operation it
// models (the *Plain benchmarks). Run them alone, so that the big tests
// have not left every goroutine with a large vector clock:
//
//	go test -run '^$' -bench . -benchmem ./runtime

var benchWord = new(uint64)

// BenchmarkAccessSameEpoch is the fast path: the goroutine wrote the word
// already in its current epoch.
func BenchmarkAccessSameEpoch(b *testing.B) {
	b.ReportAllocs()
	addr := unsafe.Pointer(benchWord)
	s := newSite()
	rt.Write(addr, 8, s)
	for b.Loop() {
		rt.Write(addr, 8, s)
		*benchWord++
	}
}

// BenchmarkAccessSameEpochCtx is BenchmarkAccessSameEpoch as instrumented
// code makes it: through W, with the function's Ctx.
func BenchmarkAccessSameEpochCtx(b *testing.B) {
	b.ReportAllocs()
	var c rt.Ctx
	s := newSite()
	for b.Loop() {
		*rt.W(benchWord, s, &c)++
	}
}

func BenchmarkAccessSameEpochPlain(b *testing.B) {
	for b.Loop() {
		*benchWord++
	}
}

// BenchmarkAccessOrdered writes a word in a new epoch of the same
// goroutine every other iteration: the full write check, without the
// same-epoch shortcut, plus the amortized cost of the release that ticks
// the clock.
func BenchmarkAccessOrdered(b *testing.B) {
	b.ReportAllocs()
	addr := unsafe.Pointer(benchWord)
	s := newSite()
	tick := newObject()
	i := 0
	for b.Loop() {
		rt.Write(addr, 8, s)
		*benchWord++
		if i++; i&1 == 0 {
			rt.Release(tick)
		}
	}
}

// BenchmarkAccessOtherGoroutine writes words that another goroutine wrote
// last, ordered after it by a WaitGroup: the write epoch belongs to
// another slot and is checked against the vector clock. Rewriting the
// words between passes is not timed.
func BenchmarkAccessOtherGoroutine(b *testing.B) {
	b.ReportAllocs()
	const words = 4096
	buf := make([]uint64, words)
	escape(buf)
	s := newSite()
	wg := new(sync.WaitGroup)
	refill := func() {
		wg.Add(1)
		<-goInstr(func() {
			for i := range buf {
				rt.Write(unsafe.Pointer(&buf[i]), 8, s)
			}
			rt.WaitGroupDone(wg)
		})
		rt.WaitGroupWait(wg)
	}
	refill()
	i := 0
	for b.Loop() {
		if i == words {
			b.StopTimer()
			refill()
			i = 0
			b.StartTimer()
		}
		rt.Write(unsafe.Pointer(&buf[i]), 8, s)
		buf[i]++
		i++
	}
}

// BenchmarkAccessSharedRead reads words again in the epoch of its first
// read of them, after another goroutine's unordered reads gave each a read
// set: matmul's operands, which every worker reads. The words outnumber
// the epoch cache's entries, so each read consults its cell.
func BenchmarkAccessSharedRead(b *testing.B) {
	b.ReportAllocs()
	const words = 4096
	buf := make([]uint64, words)
	escape(buf)
	s := newSite()
	read := func() {
		for i := range buf {
			rt.Read(unsafe.Pointer(&buf[i]), 8, s)
		}
	}
	<-goInstr(read) // unordered with what follows: nothing joins it
	read()
	i := 0
	for b.Loop() {
		rt.Read(unsafe.Pointer(&buf[i]), 8, s)
		i = (i + 1) % words
	}
}

func BenchmarkLockUnlock(b *testing.B) {
	b.ReportAllocs()
	mu := new(sync.Mutex)
	for b.Loop() {
		rt.Lock(mu)
		rt.Unlock(mu)
	}
}

func BenchmarkLockUnlockPlain(b *testing.B) {
	mu := new(sync.Mutex)
	for b.Loop() {
		mu.Lock()
		mu.Unlock()
	}
}

// BenchmarkChanSendRecv is a send and a receive on a buffered channel by
// one goroutine: the two hooks' cost without scheduling.
func BenchmarkChanSendRecv(b *testing.B) {
	b.ReportAllocs()
	ch := make(chan int, 1)
	for b.Loop() {
		rt.Send(ch, 1, 0, nil)
		rt.Recv(ch, nil)
	}
}

func BenchmarkChanSendRecvPlain(b *testing.B) {
	ch := make(chan int, 1)
	for b.Loop() {
		ch <- 1
		<-ch
	}
}

// BenchmarkGoStart is a go statement as instrumented, waited for with a
// plain channel.
func BenchmarkGoStart(b *testing.B) {
	b.ReportAllocs()
	done := make(chan struct{})
	for b.Loop() {
		g := rt.GoFork()
		go func() {
			rt.GoStart(g)
			defer rt.GoEnd()
			done <- struct{}{}
		}()
		<-done
	}
}

func BenchmarkGoStartPlain(b *testing.B) {
	done := make(chan struct{})
	for b.Loop() {
		go func() {
			done <- struct{}{}
		}()
		<-done
	}
}
