// Counter_racy increments a global from two goroutines without a lock.
package main

import (
	"fmt"
	"time"
)

var hits int

func main() {
	done := make(chan bool)
	go func() {
		hits++ // race
		done <- true
	}()
	time.Sleep(10 * time.Millisecond) // orders nothing for the memory model
	hits++                            // race
	<-done
	fmt.Println("done")
}
