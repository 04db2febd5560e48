// Timers and tickers are replaced by helpers that the rewriter declares
// once per package, in the first file that imports time (this one, under
// another name), and that release into the channel before the timer can
// send on it.
package timers

import tm "time"

// A Clock holds a timer and a ticker that another package resets.
type Clock struct {
	T *tm.Timer
	K *tm.Ticker
}

type embedded struct {
	*tm.Timer
}

func calls(d tm.Duration) {
	t := tm.NewTimer(d)
	t.Reset(2 * d)
	t.Reset(0) // an untyped constant
	k := tm.NewTicker(d)
	k.Reset(d)
	<-tm.After(d)
	<-tm.Tick(d)
	var v tm.Timer
	v.Reset(d) // on an addressable value
	e := embedded{t}
	e.Reset(d) // promoted
	tm.AfterFunc(d, func() {}).Reset(d)
	tm.Sleep(d)
}

func values(d tm.Duration) {
	newTimer, after, newTicker, tick := tm.NewTimer, tm.After, tm.NewTicker, tm.Tick
	_, _, _, _ = newTimer(d), after(d), newTicker(d), tick(d)
	t := tm.NewTimer(d)
	reset := t.Reset
	reset(d)
}

var packageLevel = tm.NewTimer(tm.Hour)
