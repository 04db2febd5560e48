// A write in a goroutine races with a read in main: nothing orders them.
package main

import (
	"fmt"
	"time"
)

var x int

func main() {
	go func() {
		x = 1 // RACE
	}()
	time.Sleep(100 * time.Millisecond)
	fmt.Println(x) // RACE
}
