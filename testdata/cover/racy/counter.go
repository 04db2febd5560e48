// Package racy is the racy package of racegen's -cover tests. Its races
// are in the package's own files, which -cover rewrites, not in its
// tests, which it does not.
package racy

var hits, last int

// Bump counts one hit.
func Bump() {
	hits++ // race
}

// Hits returns the count.
func Hits() int { return hits }

// Set records who came last.
func Set(who int) {
	last = who // race
}

// Mark does nothing but run a block, whose coverage counter every caller
// updates.
func Mark() int {
	return 1
}
