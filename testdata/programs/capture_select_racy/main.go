// Capture_select_racy reads a captured variable in a goroutine while its
// creator assigns it in a select case.
package main

import (
	"fmt"
	"time"
)

func main() {
	var v int
	ch := make(chan int, 1)
	ch <- 4
	done := make(chan bool)
	go func() {
		done <- v >= 0 // race
	}()
	time.Sleep(10 * time.Millisecond)
	select {
	case v = <-ch: // race
	}
	fmt.Println(<-done)
}
