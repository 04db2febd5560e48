// Package globalsasm declares a function without a body, implemented in
// assembly that may write any of its variables: none of them is
// read-only. Annotations as in package local.
package globalsasm

func use(...any) {}

func fromAsm() int

var limit = 10

func read() {
	use(limit) // shared: limit
}
