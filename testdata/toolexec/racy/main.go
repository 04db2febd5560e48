// Racy is the racy program of racegen's toolexec and vet tests: two
// goroutines update a counter without a lock. It imports only sync, so
// that a build with a new -toolexec wrapper recompiles little of the
// standard library.
package main

import "sync"

var hits int

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		hits++ // race
	}()
	hits++ // race
	wg.Wait()
	println("hits", hits)
}
