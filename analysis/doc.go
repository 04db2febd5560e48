// Package analysis finds the memory accesses of a Go package that are
// provably goroutine-local, so that racegen's instrumenter can leave them
// without a race-detection hook. It builds the package in SSA form
// (golang.org/x/tools/go/ssa, with debug information so that SSA values
// can be traced back to source expressions), runs a flow-insensitive,
// field-insensitive points-to and escape analysis over every function of
// the package, and maps the result back to the access expressions of the
// syntax tree. The result is a [Locality], available directly through
// [Package] or as the result of the go/analysis pass [Analyzer].
//
// The analysis is built to be sound in one direction only: an access is
// reported local only if every location it may touch belongs to an
// allocation site whose pointer can never reach another goroutine. An
// allocation escapes, together with everything reachable from it, when a
// value that may point to it flows to a go statement (function value,
// receiver, arguments or captured variables), a channel send, a panic, a
// store into memory that is not itself local, a call whose callee is
// unknown, dynamic or not summarised (apart from a few pure standard
// library functions), a conversion to an integer, or a return from a
// function whose callers are not all known. Loads from escaped or unknown
// memory yield unknown pointers, and unknown pointers are never local. Calls
// to functions of the same package use summaries that say whether each
// argument (standing for everything reachable from it) escapes or is
// returned; deferred calls and synchronously called closures run on the
// calling goroutine and are treated as ordinary calls. Anything the analysis
// does not model, cannot map back to syntax, or could not build is
// reported as not local, so mistakes cost instrumentation, not missed races.
package analysis
