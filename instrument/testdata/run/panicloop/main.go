// A panic in a loop that the instrumenter emits twice, with and without
// hooks, reports its original line from either copy.
package main

import "fmt"

var g = []int{1, 2, 3}

func sum(s []int, n int) int {
	t := 0
	for i := 0; i < n; i++ {
		t += s[i] // PANIC
	}
	return t
}

func main() {
	fmt.Println(sum(g, 3))
	fmt.Println(sum(g, 4))
}
