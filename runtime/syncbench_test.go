package runtime

import (
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// The Idle* benchmarks measure synchronization outside sampling periods
// with the gate open, the state a program at a low sampling rate spends
// most of its time in: a sampling period left history behind, and the
// goroutines' clocks have an entry for each of the many slots earlier
// goroutines used. Run them alone:
//
//	go test -run '^$' -bench Idle -benchmem ./runtime

var idleWord = new(uint64)

// openIdle leaves the detector outside a sampling period with the gate
// open and about slots slots in use, every one with a clock entry that
// the benchmark's goroutines will see.
func openIdle(b *testing.B, slotsUsed int) {
	b.Helper()
	switchSampling(true)
	b.Cleanup(func() { switchSampling(true) })
	var wg sync.WaitGroup
	wg.Add(slotsUsed)
	for range slotsUsed {
		inGoroutine(func() { WaitGroupDone(&wg) })
	}
	WaitGroupWait(&wg)
	// A global's history is never swept: the gate stays open.
	Write(unsafe.Pointer(idleWord), 8, SiteGlobal|1)
	switchSampling(false)
	if !gateOpen() {
		b.Fatal("gate closed")
	}
	b.ReportAllocs()
	b.ResetTimer()
}

func BenchmarkIdleMutex(b *testing.B) {
	openIdle(b, 1500)
	mu := new(sync.Mutex)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			Lock(mu)
			Unlock(mu)
		}
	})
}

func BenchmarkIdleIO(b *testing.B) {
	openIdle(b, 1500)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			IORelease()
			IOAcquire()
		}
	})
}

func BenchmarkIdleChan(b *testing.B) {
	openIdle(b, 1500)
	ch := make(chan int, 64)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			Send(ch, 1, 0, nil)
			Recv(ch, nil)
		}
	})
}

func BenchmarkIdleAtomic(b *testing.B) {
	openIdle(b, 1500)
	x := new(int64)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			AtomicAddInt64(x, 1, 0)
		}
	})
}

// closeGateBench ends sampling for the benchmark, whose cleanup restores
// full detection, and skips it if history left by an earlier benchmark
// keeps the gate open.
func closeGateBench(b *testing.B) {
	b.Helper()
	switchSampling(false)
	b.Cleanup(func() { switchSampling(true) })
	if gateOpen() {
		b.Skip("gate open: history left by an earlier benchmark")
	}
}

// BenchmarkIdleGo is a go statement with the gate open outside sampling.
func BenchmarkIdleGo(b *testing.B) {
	openIdle(b, 1500)
	done := make(chan struct{})
	for range b.N {
		g := GoFork()
		go func() {
			GoStart(g)
			defer GoEnd()
			done <- struct{}{}
		}()
		<-done
	}
}

// BenchmarkClosedGo is a go statement with the gate closed, as at rate 0.
func BenchmarkClosedGo(b *testing.B) {
	closeGateBench(b)
	b.ReportAllocs()
	done := make(chan struct{})
	for range b.N {
		g := GoFork()
		go func() {
			GoStart(g)
			defer GoEnd()
			done <- struct{}{}
		}()
		<-done
	}
}

// BenchmarkPacingClosedChan is a channel send and receive while the gate
// is closed in a period the pacer measures: the operations are only
// counted. BenchmarkClosedChan is the same where they are not counted:
// at rate 0, or in a period the pacer does not measure. Each goroutine
// has a channel of its own.
func BenchmarkPacingClosedChan(b *testing.B) { benchClosedChan(b, true) }
func BenchmarkClosedChan(b *testing.B)       { benchClosedChan(b, false) }

func benchClosedChan(b *testing.B, pace bool) {
	closeGateBench(b)
	was := counting()
	setCounting(pace)
	b.Cleanup(func() { setCounting(was) })
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ch := make(chan int, 1)
		for pb.Next() {
			Send(ch, 1, 0, nil)
			Recv(ch, nil)
		}
	})
}

// BenchmarkClosedAtomicLoad is an atomic load with the gate closed, as
// at rate 0: the wrapper inlines, and costs a load and a branch more than
// BenchmarkClosedAtomicLoadPlain, the load alone.
func BenchmarkClosedAtomicLoad(b *testing.B) {
	closeGateBench(b)
	x := new(int64)
	var sum int64
	for b.Loop() {
		sum += AtomicLoadInt64(x, 0)
	}
	benchSink = sum
}

func BenchmarkClosedAtomicLoadPlain(b *testing.B) {
	x := new(int64)
	var sum int64
	for b.Loop() {
		sum += atomic.LoadInt64(x)
	}
	benchSink = sum
}

var benchSink int64
