package wholeprog

// Subtests: t.Run returns after its subtest has finished, which orders
// the subtest's accesses before the parent's next ones, whatever else the
// subtest synchronized with (issue 18, item 3). It does not order a
// goroutine the subtest started and did not wait for.

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRaceSubtestGoroutine(t *testing.T) {
	x := 0
	done := make(chan bool)
	t.Run("go", func(t *testing.T) {
		go func() {
			_ = x // race
			done <- true
		}()
	})
	x = 1 // race
	<-done
}

func TestNoRaceSubtestChan(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 1
	x := 1
	t.Run("ok", func(t *testing.T) {
		<-ch
		_ = x
	})
	x = 2
}

func TestNoRaceSubtestMutex(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	x := 1
	mu.Unlock()
	t.Run("ok", func(t *testing.T) {
		mu.Lock()
		_ = x
		mu.Unlock()
	})
	x = 2
}

func TestNoRaceSubtestAtomicValue(t *testing.T) {
	var v atomic.Value
	x := 1
	v.Store(1)
	t.Run("ok", func(t *testing.T) {
		_ = v.Load()
		_ = x
	})
	x = 2
}

// Cleanups run after the test function returns, on the test's goroutine
// (issue 18, item 5): a race between a cleanup and a goroutine the test
// started is a race during the test, which fails it.
func TestRaceCleanup(t *testing.T) {
	pauseGC(t)
	x := 0
	go func() {
		x = 1 // race
	}()
	t.Cleanup(func() {
		time.Sleep(10 * time.Millisecond) // orders nothing: the write is done by then
		_ = x                             // race
	})
}

// A cleanup ordered after the goroutine's write races with nothing.
func TestNoRaceCleanup(t *testing.T) {
	x := 0
	done := make(chan bool)
	go func() {
		x = 1
		close(done)
	}()
	t.Cleanup(func() {
		<-done
		_ = x
	})
}
