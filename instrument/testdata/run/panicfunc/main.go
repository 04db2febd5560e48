// A panic in a function that the instrumenter emits twice, with and
// without hooks, reports its original line from either copy.
package main

import "fmt"

type header struct {
	key, value []byte
	n          int
}

// split only computes until it returns, and has four hooks. Its
// signature spans lines, so a copy of its body printed without line
// directives would report the panic on the wrong line.
func (h *header) split(
	line []byte,
	at int,
) {
	h.n++
	h.key = append(h.key[:0],
		line[:at]...)
	h.value = line[at+1:] // PANIC
}

func main() {
	var h header
	h.split([]byte("a:b"), 1)
	fmt.Println(string(h.key), string(h.value), h.n)
	h.split([]byte("ab"), 2)
	fmt.Println(string(h.key), string(h.value), h.n)
}
