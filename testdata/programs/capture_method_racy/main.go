// Capture_method_racy reads a field of a captured struct variable in a
// goroutine while its creator calls a pointer method on the variable,
// which takes its address and writes the field.
package main

import (
	"fmt"
	"time"
)

type counter struct {
	n int
}

func (c *counter) inc() {
	c.n++ // race
}

func main() {
	c := counter{n: 1}
	done := make(chan bool)
	go func() {
		done <- c.n > 0 // race
	}()
	time.Sleep(10 * time.Millisecond)
	c.inc()
	fmt.Println(<-done)
}
