package runtime

import _ "unsafe" // go:linkname

// The detector's own goroutines are invisible to the program, as those
// of go build -race's detector are: runtime.NumGoroutine does not count
// them, runtime.Stack(buf, true) and the goroutine profile leave them
// out, and so leak checkers such as go.uber.org/goleak do not find them.
// The Go runtime hides its "system goroutines", those whose start
// function's name begins with "runtime." (isSystemGoroutine in
// $GOROOT/src/runtime/traceback.go), unless GOTRACEBACK=system. So every
// goroutine the detector starts is started with a go statement that calls
// one of the functions below and nothing else, with no arguments (a call
// with arguments would start a wrapper the compiler names after the
// caller), and each is given the name runtime.racegen_<job> with
// go:linkname. Their arguments are passed in the variables beside them.
//
// The one other go statement of the package, in WaitGroupGo, starts the
// program's own goroutine, which stays visible as it would with
// sync.WaitGroup.Go. hidden_test.go checks that the detector's goroutines
// do not show.

// racegenSweeper forgets the metadata of dead objects after GC cycles
// (heap.go).
//
//go:linkname racegenSweeper runtime.racegen_sweeper
func racegenSweeper() { sweeper() }

// racegenPacer switches Pacer's sampling periods (pacer.go) at the rate
// pacerRate, and closes pacerReady once the first period has begun.
//
//go:linkname racegenPacer runtime.racegen_pacer
func racegenPacer() { pace(pacerRate, runtimeRand, pacerReady) }

var (
	pacerRate  float64
	pacerReady chan struct{}
)

// racegenReaper frees watchpoints at their time limit (watch.go).
//
//go:linkname racegenReaper runtime.racegen_reaper
func racegenReaper() { softReaper() }

// racegenWatchLoop decides the samples of the hardware watchpoints of
// watchLoopHW (watch.go).
//
//go:linkname racegenWatchLoop runtime.racegen_watchloop
func racegenWatchLoop() { watchLoopHW.loop() }

var watchLoopHW *hwWatch

// racegenGoidProbe sends the g struct and goroutine id of a new goroutine
// to goidProbes, for the calibration of the id's offset (goid.go).
//
//go:linkname racegenGoidProbe runtime.racegen_goidprobe
func racegenGoidProbe() { goidProbes <- takeGoidProbe() }

var goidProbes = make(chan goidProbe)
