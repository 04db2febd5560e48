package runtime

import (
	"math"
	"time"
)

// A timer or ticker sends on its channel from inside the Go runtime, so a
// goroutine that receives from t.C is ordered after whatever the goroutine
// that started or reset the timer did before. The wrappers release into
// the channel's clock before the timer can fire; receives from t.C are
// instrumented as receives and acquire it. Functions run by
// time.AfterFunc start in a new goroutine, which the detector registers at
// its first hook as ordered after everything before it, so AfterFunc
// needs no wrapper.

// never is a duration long enough that a timer armed with it does not
// fire before it is reset.
const never = time.Duration(math.MaxInt64)

// NewTimer is time.NewTimer(d).
func NewTimer(d time.Duration) *time.Timer {
	t := time.NewTimer(never)
	ChanPreSend(ChanOf(t.C), 0)
	t.Reset(d)
	return t
}

// After is time.After(d).
func After(d time.Duration) <-chan time.Time { return NewTimer(d).C }

// NewTicker is time.NewTicker(d).
func NewTicker(d time.Duration) *time.Ticker {
	if d <= 0 {
		return time.NewTicker(d) // panics with time's own message
	}
	t := time.NewTicker(never)
	ChanPreSend(ChanOf(t.C), 0)
	t.Reset(d)
	return t
}

// Tick is time.Tick(d).
func Tick(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	return NewTicker(d).C
}

// TimerReset is t.Reset(d).
func TimerReset(t *time.Timer, d time.Duration) bool {
	ChanPreSend(ChanOf(t.C), 0)
	return t.Reset(d)
}

// TickerReset is t.Reset(d).
func TickerReset(t *time.Ticker, d time.Duration) {
	ChanPreSend(ChanOf(t.C), 0)
	t.Reset(d)
}
