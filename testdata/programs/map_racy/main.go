// Map_racy writes a map in one goroutine and reads it in another.
package main

import (
	"fmt"
	"time"
)

func main() {
	m := map[string]int{"a": 1}
	done := make(chan int)
	go func() {
		m["b"] = 2 // race
		done <- 1
	}()
	time.Sleep(10 * time.Millisecond)
	n := m["a"] // race
	<-done
	fmt.Println(n, len(m))
}
