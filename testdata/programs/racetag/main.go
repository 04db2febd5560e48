// Racetag: racegen builds code outside the standard library with the race
// build tag, as go build -race does. Only race.go, which the tag selects,
// reads b, through runtime.RaceReadRange, which package runtime has in
// race builds only: the report names its line, and norace.go, which the
// tag rules out, would not compile beside it.
package main

import "fmt"

func main() {
	b := make([]byte, 8)
	done := make(chan bool)
	go func() {
		b[3] = 1 // race
		done <- true
	}()
	checkRead(b)
	<-done
	fmt.Println(len(b))
}
