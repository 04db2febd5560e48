// In a package where no file imports time, a timer or ticker made by
// another package is reset through a generic helper, which finds the
// channel as the first word of the Timer or Ticker.
package timerreset

import "github.com/racegen/racegen/instrument/testdata/golden/timers"

func reset(c *timers.Clock) bool {
	c.K.Reset(1)
	return c.T.Reset(2)
}
