// Package analysis finds the memory accesses of a Go package that need
// no race-detection hook: those that are provably goroutine-local, and
// those that an earlier access of the same call makes redundant. It also
// finds the code that only computes, which may run without hooks while
// the detector is idle, and the code that never blocks, which may run
// with the hooks of its synchronization alone ([Computations]). It is
// the one place where racegen decides any of these; the instrumenter asks
// it and decides nothing of the kind itself.
//
// The answers come in two layers. [Variables] is what the syntax alone
// tells: which variable an access expression's memory belongs to
// (Variables.Root), which local variables no pointer and no closure
// reaches (Variables.Unaliased), which are never written after their
// initialization, and, for type parameters, what their type sets allow
// ([CoreType], [MayBeArray]). The instrumenter applies it to every
// package: accesses to unaliased variables are not even access sites.
// [Locality] adds the escape analysis and answers for every access.
//
// The escape analysis builds the package in SSA form
// (golang.org/x/tools/go/ssa, with debug information so that SSA values
// can be traced back to source expressions), runs a flow-insensitive,
// field-insensitive points-to and escape analysis over every function of
// the package, and maps the result back to the syntax tree. The result is
// a [Locality], available directly through [Package] or as the result of
// the go/analysis pass [Analyzer]: its Local method answers for access
// expressions (variables, fields, elements, dereferences), its LocalTarget
// method for the memory a pointer, slice or map refers to (range, append,
// copy).
//
// The analysis is sound in one direction only: an access is reported
// local only if every location it may touch belongs to an allocation site
// of the package whose pointer can never reach another goroutine. An
// allocation escapes, together with everything reachable from it, when a
// value that may point to it flows to a go statement (function value,
// receiver, arguments or captured variables), a channel send, a panic, a
// store into memory that is not itself local, a call whose callee is
// unknown or dynamic (apart from a few pure standard library functions),
// a conversion to an integer, or a return to callers the analysis does
// not see. Loads from escaped or unknown memory yield unknown pointers,
// and unknown pointers are never local. Unexported functions that are
// only ever called directly (not used as values, not reachable from
// assembly, linkname or cgo) take their parameters from their call sites
// and return to them; the other functions of the package are summarised
// by whether, for each argument, the memory it points to and the memory
// reachable from that through more pointers escape, are stored into or
// are returned, and their parameters point to memory the caller may share
// with anybody. The two are kept apart so that a method which hands its
// receiver's buffer to an unknown function (s.err = fmt.Errorf("%q",
// s.buf)) lets the buffer escape and not the receiver. Deferred calls and
// synchronously called closures run on the calling goroutine and are
// treated as ordinary calls. Whatever the analysis does not model,
// cannot map back to syntax, or could not build is reported as not
// local, so its mistakes cost instrumentation, never missed races.
//
// Independently of escape, a local variable that no pointer and no
// closure reaches (nor the body of a range over a function, which is a
// closure in disguise) is local wherever it is accessed, and so are its
// fields and array elements. So is a local variable that is never
// written after its initialization (a parameter, or a variable declared
// by var, := or a per-iteration range clause, that no assignment,
// increment or range clause writes and whose address, or the address of
// a part of it, is never taken): it is only read after a write that
// precedes the creation of every closure capturing it, and such a
// closure reaches another goroutine only through synchronization, or
// through a racy publication that is itself reported. This drops the
// hooks of the read-only variables that goroutines capture, which escape
// analysis must keep. Named results, which return statements write,
// never qualify. An unexported package-level variable does on the same
// terms, its declaration being its one write, made during package
// initialization (unless a //go:linkname directive names it or the
// package has assembly, which may write it unseen): a table or a
// []byte("Server") that a package only reads.
//
// Variables also answers the one other question of whether an access
// needs a hook: [Variables.Redundant] finds, within a function, the
// accesses that an earlier access to the same memory already records
// with nothing in between that may synchronize, so that FastTrack would
// find every race of theirs at the earlier one.
package analysis
