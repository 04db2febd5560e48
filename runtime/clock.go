package runtime

import _ "unsafe" // go:linkname

// The detector keeps time in int64 nanoseconds (the units are in
// parse.go), read from and slept on with the Go runtime's own functions
// rather than package time (see format.go for why).

// sleep pauses the calling goroutine for at least ns nanoseconds. It is
// time.Sleep, which the Go runtime implements and provides under that
// name (runtime.timeSleep in $GOROOT/src/runtime/time.go).
//
//go:linkname sleep time.Sleep
func sleep(ns int64)
