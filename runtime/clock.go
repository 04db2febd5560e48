package runtime

import _ "unsafe" // go:linkname

// The detector keeps time in int64 nanoseconds (the units are in
// parse.go), read from and slept on with the Go runtime's own functions
// rather than package time (see format.go for why).

// nanotime returns the Go runtime's monotonic clock, in nanoseconds. The
// runtime provides it to every package under this name
// ($GOROOT/src/runtime/time_nofake.go).
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// walltime returns the wall clock: seconds and nanoseconds since 1970 in
// UTC, and the monotonic clock. It is time.now, which the Go runtime
// provides under that name ($GOROOT/src/runtime/timestub.go and its
// per-platform variants).
//
//go:linkname walltime time.now
func walltime() (sec int64, nsec int32, mono int64)

// sleep pauses the calling goroutine for at least ns nanoseconds. It is
// time.Sleep, which the Go runtime implements and provides under that
// name (runtime.timeSleep in $GOROOT/src/runtime/time.go).
//
//go:linkname sleep time.Sleep
func sleep(ns int64)

// seconds converts ns nanoseconds to seconds as time.Duration.Seconds
// does.
func seconds(ns int64) float64 {
	sec, nsec := ns/second, ns%second
	return float64(sec) + float64(nsec)/1e9
}
