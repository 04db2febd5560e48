// Generic_array_racy reads an element of a variable whose type is a type
// parameter with an array core type while a goroutine writes the same
// element through a slice of the variable. The slice aliases the
// variable, so the variable is shared and its direct element read needs
// a hook, although the read names no slice or pointer.
package main

import (
	"fmt"
	"sync"
)

// first returns a[0], which a goroutine writes through s (with the value
// it already holds, so that the output does not depend on the order).
func first[A ~[4]int](a A) int {
	s := a[:]
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s[0] = 7 // race
	}()
	v := a[0] // race
	wg.Wait()
	return v
}

func main() {
	fmt.Println(first([4]int{7, 8, 9, 10}))
}
