// Command hidden is the program of TestHiddenGoroutines: it starts every
// goroutine the detector runtime has in the mode it is built for, then
// prints on standard error what the program can see of goroutines,
//
//	NumGoroutine N
//
// followed by the dump of runtime.Stack(buf, true), and exits through
// the runtime's Exit. Run as "hidden crash" it panics instead of exiting,
// which with GOTRACEBACK=system dumps every goroutine, the hidden ones
// included. It imports nothing but the runtime packages, so that
// building it also checks that the detector's go:linkname references
// resolve in a program without package os, syscall or time.
package main

import (
	"runtime"
	_ "unsafe" // go:linkname

	rt "github.com/racegen/racegen/runtime"
)

// runtimeArgs returns the command line; os.Args is made from it.
//
//go:linkname runtimeArgs os.runtime_args
func runtimeArgs() []string

var words [4]uint64

func main() {
	// Sampled accesses start the watchpoint engine (in a dynamic build
	// too) and arm watchpoints: the reaper has work, and in a collide
	// build each access waits out the limit.
	for i := range words {
		*rt.SW(&words[i], 0) = 1
	}
	// A goroutine of the program's own, which has ended by the dump.
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	// It may still be on its way out after the send: give it time to
	// end. The detector's goroutines, were they visible, would stay.
	for i := 0; i < 100000 && runtime.NumGoroutine() > 1; i++ {
		runtime.Gosched()
	}
	println("NumGoroutine", runtime.NumGoroutine())
	buf := make([]byte, 1<<20)
	print(string(buf[:runtime.Stack(buf, true)]))
	if args := runtimeArgs(); len(args) > 1 && args[1] == "crash" {
		panic("crash")
	}
	rt.Exit(0)
}
