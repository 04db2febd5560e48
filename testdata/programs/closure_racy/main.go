// Closure_racy shares a captured variable between a goroutine and its
// creator; a second variable is only written before the go statement.
package main

import (
	"fmt"
	"time"
)

func main() {
	total, before := 0, 7
	done := make(chan bool)
	go func() {
		total += before // race
		done <- true
	}()
	time.Sleep(10 * time.Millisecond)
	total = 10 // race
	<-done
	fmt.Println(before)
}
