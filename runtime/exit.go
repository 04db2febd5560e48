package runtime

import (
	"sync/atomic"
	_ "unsafe" // go:linkname
)

// races counts the races reported so far.
var races atomic.Int64

// Races returns the number of races reported so far.
func Races() int { return int(races.Load()) }

// Exit exits as os.Exit does, with the status ExitCode gives: like a
// program built with -race, a program that reported races and exits with
// status 0 exits with the exitcode option (66) instead. Like os.Exit it
// runs the Go runtime's exit hooks first, and it does not return. The
// instrumenter calls ExitCode at the entry of os.Exit instead, which
// keeps os.Exit's own checks (a test's os.Exit(0) panics); Exit is for
// code that cannot reach package os.
func Exit(code int) { exit(ExitCode(code)) }

// ExitCode returns the status a program that exits with code is to exit
// with, and makes the reports written so far durable: the exitcode option
// (66) if code is 0 and races were reported, code otherwise. It is meant
// for the entry of os.Exit, once package os is instrumented, where
//
//	code = racegenrt.ExitCode(code)
//
// leaves os.Exit to exit, as Exit does in its place until then.
func ExitCode(code int) int {
	writeProfile()
	flushLog()
	if code == 0 && Races() > 0 {
		return opts.exitCode
	}
	return code
}

// MainDone is called where main returns. It exits with the exitcode
// option if races were reported, and returns otherwise.
func MainDone() {
	writeProfile()
	if Races() > 0 {
		exit(opts.exitCode)
	}
}

// exit ends the program with status code the way os.Exit does, after
// making the reports durable: the Go runtime's exit hooks run (coverage
// counters are written, for one), then the process exits.
func exit(code int) {
	writeProfile()
	flushLog()
	runtimeBeforeExit(code)
	sysExit(code)
}

// runtimeBeforeExit runs the Go runtime's exit hooks; os.Exit calls it
// under this name, which the runtime provides (os_beforeExit in
// $GOROOT/src/runtime/proc.go).
//
//go:linkname runtimeBeforeExit os.runtime_beforeExit
func runtimeBeforeExit(exitCode int)

// sysExit ends the process with status code at once. It is syscall.Exit,
// which the Go runtime implements (syscall_Exit in
// $GOROOT/src/runtime/runtime.go).
//
//go:linkname sysExit syscall.Exit
func sysExit(code int)
