// Clean is the race-free program of racegen's toolexec tests: the same
// counter as racy's, under a mutex.
package main

import "sync"

var (
	mu   sync.Mutex
	hits int
)

func main() {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			hits++
			mu.Unlock()
		}()
	}
	wg.Wait()
	local := 0
	for i := range 10 {
		local += i
	}
	println("hits", hits, "local", local)
}
