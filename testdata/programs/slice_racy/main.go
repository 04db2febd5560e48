// Slice_racy appends in place to a shared slice from two goroutines.
package main

import (
	"fmt"
	"time"
)

func main() {
	s := make([]int, 0, 10)
	done := make(chan []int)
	go func() {
		done <- append(s, 1) // race
	}()
	time.Sleep(10 * time.Millisecond)
	t := append(s, 2) // race
	u := <-done
	fmt.Println(len(t), len(u))
}
