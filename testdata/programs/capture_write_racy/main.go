// Capture_write_racy hands a goroutine a closure that only reads a
// captured variable, which its creator assigns after the go statement:
// the variable is written after its initialization, so the read is not
// race-free.
package main

import (
	"fmt"
	"time"
)

func main() {
	limit := 3
	done := make(chan bool)
	go func() {
		done <- limit > 0 // race
	}()
	time.Sleep(10 * time.Millisecond)
	limit = 5 // race
	fmt.Println(<-done)
}
