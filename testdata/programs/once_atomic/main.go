// Once_atomic publishes data through sync.Once and an atomic flag.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

var (
	once   sync.Once
	config map[string]string
	ready  atomic.Bool
	data   []int
)

func load() {
	once.Do(func() { config = map[string]string{"mode": "fast"} })
}

func main() {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			load()
			_ = config["mode"]
		}()
	}
	done := make(chan struct{})
	go func() {
		for !ready.Load() {
		}
		fmt.Println(len(data))
		close(done)
	}()
	data = []int{1, 2, 3}
	ready.Store(true)
	<-done
	wg.Wait()
	fmt.Println(config["mode"])
}
