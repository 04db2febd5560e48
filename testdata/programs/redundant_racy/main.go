// Command redundant_racy races on a field that main reads twice with
// nothing in between that synchronizes: racegen hooks only the first
// read, which finds the race the second one has (analysis.Variables.Redundant).
package main

import "fmt"

type counter struct{ n, m int }

func main() {
	c := &counter{}
	done := make(chan bool)
	go func() {
		c.n = 1 // race
		c.m = 2 // race
		done <- true
	}()
	a := c.n     // race
	b := c.n + a // race
	c.m = b      // race
	c.m += a     // race
	<-done
	fmt.Println(b >= 0, c.m >= 0)
}
