package wholeprog

// Races and synchronization inside example.com/dep, the local module that
// stands for a third-party library: its types that are not safe for
// concurrent use, the goroutines it starts for its callers, the channel
// operations it performs on its callers' channels, and its pool's mutex.

import (
	"sync"
	"testing"

	"example.com/dep"
)

func TestRaceDepCounter(t *testing.T) {
	var c dep.Counter
	done := make(chan bool)
	go func() {
		c.Inc() // race
		done <- true
	}()
	c.Inc() // race
	<-done
}

func TestRaceDepStack(t *testing.T) {
	s := dep.NewStack(4)
	done := make(chan bool)
	go func() {
		s.Push(1) // race
		done <- true
	}()
	_ = s.Len() // race
	<-done
}

// dep.Both runs its two callbacks concurrently.
func TestRaceDepBoth(t *testing.T) {
	x := 0
	dep.Both(func() {
		x = 1 // race
	}, func() {
		x = 2 // race
	})
	_ = x
}

// dep.Fill writes the caller's buffer from its own goroutine, which the
// call starts: the call's line is in the report's creation stack. Fill
// writes byte by byte, and a detector keeps only a few accesses of each
// 8-byte word: with four bytes, the write of buf[0] is still known when
// the read comes after all of them.
func TestRaceDepFill(t *testing.T) {
	buf := make([]byte, 4)
	done := dep.Fill(buf, 1) // race
	_ = buf[0]               // race
	<-done
}

func TestNoRaceDepClose(t *testing.T) {
	x := 0
	ch := make(chan int)
	go func() {
		x = 1
		dep.Close(ch)
	}()
	<-ch
	_ = x
}

func TestNoRaceDepSend(t *testing.T) {
	x := 0
	ch := make(chan int, 1)
	go func() {
		x = 1
		dep.Send(ch, 1)
	}()
	<-ch
	_ = x
}

func TestNoRaceDepRecv(t *testing.T) {
	x := 0
	ch := make(chan int, 1)
	done := make(chan bool)
	go func() {
		dep.Recv(ch)
		_ = x
		done <- true
	}()
	x = 1
	ch <- 1
	<-done
}

// A receive from an unbuffered channel is ordered before the completion
// of the send it pairs with.
func TestNoRaceDepRecvUnbuffered(t *testing.T) {
	x := 0
	ch := make(chan int)
	go func() {
		x = 1
		dep.Recv(ch)
	}()
	ch <- 1
	_ = x
}

func TestNoRaceDepGo(t *testing.T) {
	x := 1
	wait := dep.Go(func() {
		x++
	})
	wait()
	if x != 2 {
		t.Errorf("x = %d", x)
	}
}

func TestNoRaceDepBothWait(t *testing.T) {
	x, y := 0, 0
	dep.Both(func() { x = 1 }, func() { y = 1 })
	if x+y != 2 {
		t.Errorf("x, y = %d, %d", x, y)
	}
}

func TestNoRaceDepFillWait(t *testing.T) {
	buf := make([]byte, 8)
	<-dep.Fill(buf, 1)
	if buf[0] != 1 {
		t.Errorf("buf = %v", buf)
	}
}

// The pool has one buffer, so both goroutines update the same bytes; the
// pool's mutex orders one holder before the next.
func TestNoRaceDepPool(t *testing.T) {
	p := dep.NewPool(1, 8)
	done := make(chan bool)
	for range 2 {
		go func() {
			b := p.Get()
			b[0]++
			p.Put(b)
			done <- true
		}()
	}
	<-done
	<-done
	if b := p.Get(); b[0] != 2 {
		t.Errorf("b[0] = %d", b[0])
	}
}

func TestNoRaceDepCounterMutex(t *testing.T) {
	var (
		mu sync.Mutex
		c  dep.Counter
	)
	done := make(chan bool)
	for range 2 {
		go func() {
			mu.Lock()
			c.Inc()
			mu.Unlock()
			done <- true
		}()
	}
	<-done
	<-done
	if c.Value() != 2 {
		t.Errorf("count %d", c.Value())
	}
}
