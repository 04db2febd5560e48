// Package ops holds micro-benchmarks of the single operations whose cost
// makes up a detector's slowdown: an access to a word the goroutine has
// just accessed, an access to a word another goroutine wrote last, an
// access to a word not touched for a long while, an uncontended Lock and
// Unlock, a channel send and receive, an atomic add to a counter that
// goroutines share, a go statement, and a pipe's write and read. They are
// plain Go, so the same source runs uninstrumented, under go test -race
// and under racegen at any rate, and the three can be compared operation
// by operation (make bench-ops).
//
// The whole-program harness (bench/driver) says how much slower a
// program runs; these say which operation it pays for. They are what
// showed that racegen at rate 1 beats -race on an access it has just
// made and on a mutex, and loses on an access to memory it has not seen
// recently (docs/runtime.md, "Full detection against -race").
package ops
