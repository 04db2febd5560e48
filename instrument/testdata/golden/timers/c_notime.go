package timers

// A file that does not import time uses the helpers its package declares.
func reset(c *Clock) {
	c.T.Reset(1)
	c.K.Reset(1)
}
