package timers

import . "time"

// Calls in a file that imports time with a dot use the same helpers.
func dot(d Duration) *Ticker {
	NewTimer(d).Reset(d)
	return NewTicker(d)
}
