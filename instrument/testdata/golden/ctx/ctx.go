// Package ctx shows which functions declare a Ctx: those that access
// memory, and those that call functions in a loop, whose inlined calls
// racegen's compiler gives the caller's Ctx.
package ctx

type counter struct{ n int }

// Inc accesses memory: it declares a Ctx and passes it to its hooks.
func (c *counter) Inc() { c.n++ }

// Loop makes no access of its own, but its loop calls Inc, which the
// compiler inlines: it declares a Ctx that nothing of its own uses.
func Loop(c *counter, n int) {
	for i := 0; i < n; i++ {
		c.Inc()
	}
}

// Range calls Inc in the body of a range loop.
func Range(c *counter, xs []int) {
	for range xs {
		c.Inc()
	}
}

// Once calls outside any loop: the callee's Ctx serves it once, and it
// declares none.
func Once(c *counter) {
	c.Inc()
}

// Lit's loop is in a function literal, which declares its own Ctx; Lit
// declares none.
func Lit(c *counter) func() {
	return func() {
		for range 3 {
			c.Inc()
		}
	}
}
