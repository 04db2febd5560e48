package runtime

import (
	goruntime "runtime"
	"sync"
	"testing"
)

// TestSpinLockExcludes has goroutines increment a counter under one
// spinLock, some of them yielding while they hold it so that the others
// wait in lockSlow: no increment may be lost.
func TestSpinLockExcludes(t *testing.T) {
	const (
		workers = 8
		rounds  = 20000
	)
	var (
		l  spinLock
		n  int
		wg sync.WaitGroup
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				l.Lock()
				v := n
				if (w+i)%64 == 0 {
					goruntime.Gosched() // hold the lock across a yield
				}
				n = v + 1
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != workers*rounds {
		t.Errorf("counter = %d, want %d: increments were lost", n, workers*rounds)
	}
	if l.v.Load() != 0 {
		t.Errorf("lock word = %d after the last Unlock, want 0", l.v.Load())
	}
}
