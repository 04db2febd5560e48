// Capture_addr_racy reads a captured variable in a goroutine while its
// creator writes it through a pointer taken before the go statement.
package main

import (
	"fmt"
	"time"
)

func main() {
	x := 1
	p := &x
	done := make(chan bool)
	go func() {
		done <- x > 0 // race
	}()
	time.Sleep(10 * time.Millisecond)
	*p = 2 // race
	fmt.Println(<-done)
}
