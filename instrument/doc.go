// Package instrument rewrites the source of a type-checked Go package so
// that it calls racegen's detector runtime (package
// github.com/racegen/racegen/runtime) before every shared memory access
// and around every synchronization operation. The rewriting works on
// github.com/dave/dst trees, so that comments, build tags and //go:
// directives survive, and it edits expressions in place with hooks that
// return their argument: a read of x becomes *racegenrt.R(&x, site, &ctx),
// a write x = v becomes *racegenrt.W(&x, site, &ctx) = v, and so on, where
// ctx is the function's cache of its goroutine's detector state (ctx.go).
// Because the hook joins the calls of the expression where the operand
// was, the evaluation order and side effects of the original are kept in
// every context without temporaries.
//
// The runtime functions that rewritten code calls, the hooks, are
// declared in one place, hooks.go, with the parameters the rewriter
// passes them; the package's contract test checks them, the site
// encoding and the mode names against the runtime's source, which the
// rewriter never imports.
//
// Synchronization is recognized by type: methods of the sync and
// sync/atomic types (also when promoted through embedding, used as method
// values or method expressions, or called through a sync.Locker), the
// functions of sync/atomic, channel operations, select, range over a
// channel and go statements are rewritten to the runtime's wrappers, and
// the standard library's internal/race annotations to the runtime's
// hooks of the same meaning, so that package testing fails a test during
// which a race was reported, as under -race. os.Exit and the return of
// func main give a racy program its exit status. Each statement of the output carries a
// /*line*/ comment naming its position in the original file, so panics,
// stack traces and race reports point at the user's source.
//
// In dynamic builds, an access that an earlier access of the same call
// already records, with nothing in between that may synchronize, gets no
// hook (redundant.go; analysis.Variables.Redundant decides).
//
// Loops that only compute run without hooks while the detector is idle
// (version.go; analysis.Computations decides what only computes), and so
// do the statements of a function after the last one that may block, all
// of its body if none may, with the hooks of their synchronization alone
// (tail.go). When it is not, a range over a slice whose body reads
// every element (wholerange.go) and a counted loop whose accesses are all
// to consecutive elements of unchanging containers (hoist_eligible.go
// decides, hoist_emit.go writes) record their accesses with one range
// hook per container before the loop.
package instrument
