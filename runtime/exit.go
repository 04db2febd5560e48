package runtime

import (
	"os"
	"sync/atomic"
)

// races counts the races reported so far.
var races atomic.Int64

// Races returns the number of races reported so far.
func Races() int { return int(races.Load()) }

// A TB is the part of testing.TB that TestCheck uses; the detector does not
// import testing, which would add its flags to every instrumented program.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// TestCheck fails t if a race was reported since Races returned before.
// The instrumenter makes it the first deferred call of every test,
// benchmark and fuzz target:
//
//	defer racegenrt.TestCheck(t, racegenrt.Races())
func TestCheck(t TB, before int) {
	if Races() > before {
		t.Helper()
		t.Errorf("race detected during execution of test")
	}
}

// Exit replaces os.Exit in instrumented code: like a program built with
// -race, a program that reported races and exits with status 0 exits with
// the exitcode option (66) instead.
func Exit(code int) {
	if code == 0 && Races() > 0 {
		flushLog()
		code = opts.exitCode
	}
	os.Exit(code)
}

// MainDone is called where main returns. It exits with the exitcode
// option if races were reported, and returns otherwise.
func MainDone() {
	if Races() > 0 {
		flushLog()
		os.Exit(opts.exitCode)
	}
}
