// A range loop whose body reads every element is recorded by one hook for
// the whole slice; its race with a write of one element is reported at
// the loop, and a write of an element beyond the slice is not.
package main

import (
	"fmt"
	"sync"
)

func sum(s []int) (t int) {
	for _, v := range s { // RACE
		t += v
	}
	return t
}

func main() {
	buf := make([]int, 8)
	var mu sync.Mutex
	done := make(chan bool)
	go func() {
		buf[3] = 1 // RACE
		mu.Lock()
		buf[7] = 2 // NORACE: not read by sum, outside s
		mu.Unlock()
		done <- true
	}()
	t := sum(buf[:6])
	<-done
	fmt.Println(t >= 0)
}
