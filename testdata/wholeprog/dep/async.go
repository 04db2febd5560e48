package dep

import "sync"

// Both calls f and g, each in a goroutine of its own, and returns when
// both have returned. f and g run concurrently: Both orders neither
// before the other.
func Both(f, g func()) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		f()
	}()
	go func() {
		defer wg.Done()
		g()
	}()
	wg.Wait()
}

// Go calls f in a new goroutine and returns a function that waits for f
// to return.
func Go(f func()) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	return func() { <-done }
}

// Fill sets every byte of buf to v from a goroutine of its own and
// returns a channel that is closed when it has finished.
func Fill(buf []byte, v byte) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for i := range buf {
			buf[i] = v
		}
		close(done)
	}()
	return done
}
