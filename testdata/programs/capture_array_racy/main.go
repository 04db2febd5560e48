// Capture_array_racy reads an element of a captured array variable in a
// goroutine while its creator assigns the element after the go
// statement: an element write is a write of the array.
package main

import (
	"fmt"
	"time"
)

func main() {
	a := [3]int{1, 2, 3}
	done := make(chan bool)
	go func() {
		done <- a[1] > 0 // race
	}()
	time.Sleep(10 * time.Millisecond)
	a[1] = 5 // race
	fmt.Println(<-done, a[0])
}
