package wholeprog

// Cancellation orders what the canceller did before cancel() before what
// a goroutine does after it observes the cancellation: through
// ctx.Done(), a ctx.Err() poll, context.AfterFunc, or a timeout's timer.
// All of it happens inside package context.

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestRaceContextWriteAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	done := make(chan bool)
	go func() {
		<-ctx.Done()
		_ = x // race
		done <- true
	}()
	cancel()
	x = 1 // race
	<-done
}

func TestNoRaceContextDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	done := make(chan bool)
	go func() {
		<-ctx.Done()
		_ = x
		done <- true
	}()
	x = 1
	cancel()
	<-done
}

func TestNoRaceContextErrPollSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	done := make(chan bool)
	go func() {
		for ctx.Err() == nil {
			time.Sleep(10 * time.Microsecond)
		}
		_ = x
		done <- true
	}()
	x = 1
	cancel()
	<-done
}

// The poller counts its rounds in an atomic, as a worker reporting
// progress would; no other goroutine touches it, so it orders nothing.
func TestNoRaceContextErrPollAtomic(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	var rounds atomic.Int64
	done := make(chan bool)
	go func() {
		for ctx.Err() == nil {
			rounds.Add(1)
			runtime.Gosched()
		}
		_ = x
		done <- true
	}()
	x = 1
	cancel()
	<-done
}

func TestNoRaceContextAfterFunc(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	done := make(chan bool)
	context.AfterFunc(ctx, func() {
		_ = x
		x = 2
		done <- true
	})
	x = 1
	cancel()
	<-done
	if x != 2 {
		t.Errorf("x = %d", x)
	}
}

func TestNoRaceContextWithTimeout(t *testing.T) {
	x := 1
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	done := make(chan bool)
	go func() {
		<-ctx.Done()
		if ctx.Err() == context.DeadlineExceeded {
			x = 2
		}
		done <- true
	}()
	<-ctx.Done()
	<-done
	if x != 2 {
		t.Errorf("x = %d", x)
	}
}

// The callback runs in a goroutine that package context starts when the
// timeout's timer fires: only std orders the write before it.
func TestNoRaceContextWithTimeoutAfterFunc(t *testing.T) {
	x := 1
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	done := make(chan bool)
	context.AfterFunc(ctx, func() {
		_ = x
		done <- true
	})
	<-done
}
