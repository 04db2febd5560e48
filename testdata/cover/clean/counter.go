// Package clean is the race-free package of racegen's -cover tests:
// the same counter as package racy, behind a lock.
package clean

import "sync"

var (
	mu   sync.Mutex
	hits int
)

// Bump counts one hit.
func Bump() {
	mu.Lock()
	hits++
	mu.Unlock()
}

// Hits returns the count.
func Hits() int {
	mu.Lock()
	defer mu.Unlock()
	return hits
}

// Reset is never called by the test, so that coverage is below 100%.
func Reset() {
	mu.Lock()
	hits = 0
	mu.Unlock()
}
