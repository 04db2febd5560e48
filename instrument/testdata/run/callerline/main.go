// The lines runtime.Caller reports are the original's, whatever the
// layout: statements after empty lines, calls spanning lines, closures.
// TestRun compares this program's output instrumented and not.
package main

import (
	"fmt"
	"runtime"
)

var shared int

func line() int {
	_, _, l, _ := runtime.Caller(1)
	return l
}

func pair(a, b int) [2]int { return [2]int{a, b} }

func main() {
	x := line()

	y := line()
	shared = x + y

	z := pair(
		line(),

		line(),
	)
	f := func() int {

		return line()
	}

	switch {
	case shared > 0:

		shared = line()
	}
	fmt.Println(x, y, z, f(), shared, afterComments())
}
