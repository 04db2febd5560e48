// Capture_field_racy reads a field of a captured struct variable in a
// goroutine while its creator assigns the field after the go statement: a
// field write is a write of the variable.
package main

import (
	"fmt"
	"time"
)

type config struct {
	workers, depth int
}

func main() {
	c := config{workers: 4, depth: 2}
	done := make(chan bool)
	go func() {
		done <- c.workers > 0 // race
	}()
	time.Sleep(10 * time.Millisecond)
	c.workers = 8 // race
	fmt.Println(<-done, c.depth)
}
