package wholeprog

// Timers, whose synchronization is implemented in the Go runtime:
// time.AfterFunc orders the call before the callback; NewTimer, Reset,
// After and NewTicker order the call before the delivery on the channel.
// Neither orders what the caller does after the call.

import (
	"testing"
	"time"
)

func TestRaceTimeAfterFunc(t *testing.T) {
	pauseGC(t)
	x := 0
	done := make(chan bool)
	time.AfterFunc(0, func() {
		x = 1 // race
		done <- true
	})
	x = 2 // race
	<-done
	_ = x
}

func TestRaceTimerWriteAfterReset(t *testing.T) {
	tm := time.NewTimer(time.Hour)
	tm.Stop()
	x := 0
	done := make(chan bool)
	go func() {
		<-tm.C
		_ = x // race
		done <- true
	}()
	tm.Reset(0)
	x = 1 // race
	<-done
}

func TestNoRaceTimeAfterFunc(t *testing.T) {
	x := 1
	done := make(chan bool)
	time.AfterFunc(0, func() {
		_ = x
		x = 2
		done <- true
	})
	<-done
	if x != 2 {
		t.Errorf("x = %d", x)
	}
}

// The receiver exists before the write; only the timer orders the write
// before its read.
func TestNoRaceTimerReset(t *testing.T) {
	tm := time.NewTimer(time.Hour)
	tm.Stop()
	x := 0
	done := make(chan bool)
	go func() {
		<-tm.C
		_ = x
		done <- true
	}()
	x = 1
	tm.Reset(time.Millisecond)
	<-done
}

func TestNoRaceTickerReset(t *testing.T) {
	tk := time.NewTicker(time.Hour)
	defer tk.Stop()
	x := 0
	done := make(chan bool)
	go func() {
		<-tk.C
		_ = x
		done <- true
	}()
	x = 1
	tk.Reset(time.Millisecond)
	<-done
}

func TestNoRaceTimerNewTimer(t *testing.T) {
	x := 1
	tm := time.NewTimer(time.Millisecond)
	done := make(chan bool)
	go func() {
		<-tm.C
		_ = x
		done <- true
	}()
	<-done
}

func TestNoRaceTimeAfter(t *testing.T) {
	x := 1
	c := time.After(time.Millisecond)
	done := make(chan bool)
	go func() {
		<-c
		_ = x
		done <- true
	}()
	<-done
}

func TestNoRaceTicker(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	x := 0
	done := make(chan bool)
	go func() {
		for range 2 {
			<-tk.C
			x++
		}
		done <- true
	}()
	<-done
	if x != 2 {
		t.Errorf("x = %d", x)
	}
}
