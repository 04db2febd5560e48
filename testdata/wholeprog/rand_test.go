package wholeprog

// A math/rand.Rand is not safe for concurrent use: its source's state is
// read and written inside std.

import (
	"math/rand"
	"testing"
)

func TestRaceMathRand(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	// One draw first moves the source's indexes away from the wrap-around
	// at zero, which two concurrent draws could otherwise push out of
	// range.
	r.Int63()
	done := make(chan bool)
	go func() {
		r.Int63() // race
		done <- true
	}()
	r.Int63() // race
	<-done
}
