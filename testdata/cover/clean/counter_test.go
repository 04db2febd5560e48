package clean

import (
	"sync"
	"testing"
)

func TestBump(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			Bump()
		}()
	}
	wg.Wait()
	if Hits() == 0 {
		t.Fatal("no hits")
	}
}
