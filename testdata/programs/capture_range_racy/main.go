// Capture_range_racy reads a captured variable in a goroutine while its
// creator assigns it in a range clause with =, which writes the one
// variable every iteration.
package main

import (
	"fmt"
	"time"
)

func main() {
	var v int
	done := make(chan bool)
	go func() {
		done <- v >= 0 // race
	}()
	time.Sleep(10 * time.Millisecond)
	n := 0
	for _, v = range []int{1, 2} { // race
		n++
	}
	fmt.Println(<-done, n)
}
