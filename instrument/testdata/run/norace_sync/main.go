// Shared data protected by a mutex, a WaitGroup, Once and atomics.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type counter struct {
	sync.Mutex
	n int
}

type stats struct {
	mu    sync.RWMutex
	byKey map[string]int
}

func main() {
	var c counter
	var wg sync.WaitGroup
	s := &stats{byKey: map[string]int{}}
	var total atomic.Int64
	var hits int64
	var once sync.Once
	var initDone int
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			once.Do(func() { initDone++ })
			c.Lock()
			c.n += i
			c.Unlock()
			s.mu.Lock()
			s.byKey[fmt.Sprint(i%3)]++
			s.mu.Unlock()
			s.mu.RLock()
			_ = s.byKey["0"]
			s.mu.RUnlock()
			total.Add(int64(i))
			atomic.AddInt64(&hits, 1)
		}(i)
	}
	wg.Wait()
	unlock := c.Unlock
	c.Lock()
	fmt.Println(c.n, len(s.byKey), total.Load(), atomic.LoadInt64(&hits), initDone)
	unlock()
	var wg2 sync.WaitGroup
	res := make([]int, 4)
	for i := range res {
		wg2.Go(func() { res[i] = i * i })
	}
	wg2.Wait()
	fmt.Println(res)
}
