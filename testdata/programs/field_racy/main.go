// Field_racy writes one field of a shared struct from two goroutines;
// another field, written by only one of them, does not race.
package main

import (
	"fmt"
	"time"
)

type point struct {
	x, y int
}

func main() {
	p := &point{}
	done := make(chan bool)
	go func() {
		p.x = 1 // race
		p.y = 2
		done <- true
	}()
	time.Sleep(10 * time.Millisecond)
	p.x = 3 // race
	<-done
	fmt.Println(p.y)
}
