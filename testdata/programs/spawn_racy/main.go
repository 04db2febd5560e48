// Spawn_racy starts goroutines with go statements of declared functions,
// which racegen rewrites without a wrapper (runtime/spawn.go): each
// child's accesses must be ordered after everything its parent did
// before the go statement, including the evaluation of the arguments, and
// concurrent with what the parent does after it.
package main

import "fmt"

type config struct{ n int }

var (
	before int // written by the parent before the go statement
	after  int // written by the parent after it
)

func child(c *config, n int, done chan<- int) {
	before++  // ordered after the parent's write
	c.n += n  // ordered after the parent's read of c.n for the argument
	after = 2 // race
	done <- before + c.n
}

func main() {
	c := &config{n: 1}
	done := make(chan int)
	before = 1
	go child(c, c.n, done)
	after = 1 // race
	fmt.Println(<-done)
}
