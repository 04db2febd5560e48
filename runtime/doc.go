// Package runtime is racegen's data-race detector: the code that programs
// rewritten by racegen's instrumenter call before every shared memory access
// and around every synchronization operation.
//
// At full detection the detector runs FastTrack (Flanagan and Freund, PLDI
// 2009) over goroutines: every goroutine has a vector clock, every
// synchronization object (mutex, channel, WaitGroup, atomic variable, ...)
// carries the clock of its last release, and every 8-byte granule of memory
// that was accessed keeps the epoch of its last write and the epoch or set
// of epochs of its last reads. A write that is not ordered after the
// previous reads and writes of the same bytes, or a read not ordered after
// the previous write, is a data race and is reported in the format of
// go build -race. The metadata is shaped for the sampling detectors built
// on it: null metadata and shallow, copy-on-write vector clocks for Pacer,
// and a scalar per-goroutine clock for CRSampler's clock races.
//
// The detector sees the program at the level of the Go language (the LARD
// rules): goroutines, not threads, are its unit of identity; only accesses
// and synchronization written in instrumented source are observed; and
// history is never trusted across a reuse of the memory it describes. The
// exported functions are the hooks the instrumenter emits; a program never
// calls them by hand, but their contracts are documented here because the
// instrumenter relies on them. See docs/runtime.md for the data structures.
package runtime
