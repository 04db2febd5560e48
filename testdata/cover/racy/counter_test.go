package racy

import (
	"sync"
	"testing"
	"time"
)

// TestBump bumps the counter from two goroutines.
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

// TestSetThenMark sets last in two goroutines that only share Mark's
// coverage counter, updated after the first Set and before the second:
// in -covermode=atomic, were the counter's atomic updates taken for
// synchronization, the two Sets would look ordered.
func TestSetThenMark(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		Set(1)
		Mark()
	}()
	time.Sleep(20 * time.Millisecond)
	Mark()
	Set(2)
	wg.Wait()
}
