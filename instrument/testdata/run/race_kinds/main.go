// Races on a struct field through a pointer, a slice element and a map.
package main

import (
	"fmt"
	"time"
)

type T struct{ a, b int }

func main() {
	p := &T{}
	s := make([]int, 4)
	m := map[int]int{}
	go func() {
		p.b = 1  // RACE
		s[2] = 5 // RACE
		m[1] = 2 // RACE
	}()
	time.Sleep(100 * time.Millisecond)
	fmt.Println(p.b)  // RACE
	fmt.Println(s[2]) // RACE
	fmt.Println(m[1]) // RACE
}
