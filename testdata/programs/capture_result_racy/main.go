// Capture_result_racy reads a named result in a goroutine while the
// function's return statement writes it: a named result is written by
// return statements, not only by its declaration.
package main

import (
	"fmt"
	"time"
)

func compute(done chan bool) (r int) {
	go func() {
		done <- r >= 0 // race
	}()
	time.Sleep(10 * time.Millisecond)
	return 7 // race
}

func main() {
	done := make(chan bool)
	fmt.Println(compute(done), <-done)
}
