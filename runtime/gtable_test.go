package runtime

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestGtableStoresDuringGrowth: each key is written only by its owner, as
// a g is by the goroutine running on it, and a lookup after a store must
// see that store until the owner's next one, also when the table grows
// meanwhile and the store takes the path without the lock.
func TestGtableStoresDuringGrowth(t *testing.T) {
	var tab gtable
	gtabGrowPause = func() { time.Sleep(2 * time.Millisecond) }
	defer func() { gtabGrowPause = nil }()
	const owners, keysEach = 4, 64
	vals := make([]thread, owners*keysEach*2)
	key := func(o, k int) uintptr { return uintptr(0x10000 + (o*keysEach+k)*512) }
	for o := range owners {
		for k := range keysEach {
			tab.store(key(o, k), nil)
		}
	}
	var wg sync.WaitGroup
	var stop atomic.Bool
	errs := make(chan string, owners)
	for o := range owners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; !stop.Load(); r++ {
				for k := range keysEach {
					if r > 0 && tab.lookup(key(o, k)) != &vals[(o*keysEach+k)*2+(r-1)%2] {
						errs <- "a store was lost to a grow"
						return
					}
					v := &vals[(o*keysEach+k)*2+r%2]
					tab.store(key(o, k), v)
					if got := tab.lookup(key(o, k)); got != v {
						errs <- "a store was lost"
						return
					}
				}
			}
		}()
	}
	// Insert new keys meanwhile, which grows the table several times.
	for i := range 400000 {
		tab.store(uintptr(0x8000_0000+i*512), nil)
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if n := len(tab.tab.Load().keys); n < 2*400000 {
		t.Fatalf("table has %d slots after 400,000 inserts; it did not grow", n)
	}
}
