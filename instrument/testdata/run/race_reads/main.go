// Reads the rewriter must see although no expression spells them: the
// loads along a promoted method's path, len of a map, and the named
// results a naked return reads.
package main

import (
	"fmt"
	"time"
)

type Base int

func (b Base) Bar() int { return int(b) }

type Derived struct {
	pad int
	*Base
}

func heapParam() (x int) {
	go func() {
		x = 42 // RACE
	}()
	time.Sleep(50 * time.Millisecond)
	return // RACE
}

func main() {
	d := Derived{Base: new(Base)}
	m := map[int]int{}
	go func() {
		_ = d.Bar() // RACE
		_ = len(m)  // RACE
	}()
	time.Sleep(50 * time.Millisecond)
	*d.Base = 1 // RACE
	m[1] = 1    // RACE
	fmt.Println(heapParam())
}
