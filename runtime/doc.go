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
// instrumenter relies on them. The instrumenter declares the hooks it may
// emit in one table (instrument/hooks.go), and a contract test checks that
// table against this package's declarations. See docs/runtime.md for the
// data structures.
//
// # The narrow waist
//
// Everything the detector learns of a program comes through a few hooks:
//
//   - accesses: R and W, Read, Write, ReadRange and WriteRange at full
//     and dynamic sampling; SR, SW, CR and CW in static and collide
//     builds; and Idle, with which a loop that only computes skips them
//     while the detector has nothing to do;
//   - acquire and release: ChanPreSend, ChanPreRecv and ChanPreClose, and
//     the Chan they return (PostSend, PostRecv), for any object that one
//     goroutine releases into and another acquires from; Acquire,
//     Release and ReleaseMerge, and ReadPC and WritePC, which the
//     standard library's internal/race annotations become; IORelease and
//     IOAcquire for the one object that stands for all C code (cgo
//     calls);
//   - callbacks that the Go runtime starts on goroutines of its own:
//     TimerArm and TimerFunc (time.AfterFunc), Finalizer and
//     FinalizerResult (runtime.SetFinalizer) and Cleanup
//     (runtime.AddCleanup), which order the callback after the code
//     that armed it;
//   - goroutines: GoFork, GoStart and GoEnd; GoSpawn and GoSpawned;
//   - sites: RegisterSites, which gives the site numbers passed to the
//     other hooks their positions;
//   - the end of a program or test: Races (package testing's race count),
//     Exit, ExitCode (called at the entry of os.Exit) and MainDone.
//
// # Convenience wrappers
//
// The other exported functions perform an operation and tell the detector
// about it in one call, which is shorter to emit and cheaper to run than
// the operation between hooks:
//
//   - maps, slices and strings: MapR, MapW, MapOf, SliceR, SliceW,
//     Append, AppendString, Copy and CopyString;
//   - channels: Send, Recv, Recv2, Close and ChanOf;
//   - package sync: Lock, Unlock, TryLock, RLock, RUnlock, RWLock,
//     RWUnlock, RWTryLock, TryRLock, RLocker, LockerLock, LockerUnlock,
//     UnlockIn, RWUnlockIn and RUnlockIn (deferred unlocks), the
//     WaitGroup, Once, Cond, Map and Pool functions, OnceFunc, OnceValue and
//     OnceValues; and the detector's halves of Lock, Unlock, RLock,
//     RUnlock, RWLock and RWUnlock, which the instrumenter calls around
//     the method itself when SyncHot says so, with the calling function's
//     Ctx: Locked, Unlocking, RLocked, RUnlocking, RWLocked and
//     RWUnlocking;
//   - package sync/atomic: the Atomic functions (atomic_gen.go);
//   - the results of cgo calls: IO1, IO2 and IO3.
//
// Timers have no wrappers here: the instrumenter declares them in the
// rewritten package itself (instrument/timers.go), because the detector
// does not import package time.
//
// # What the detector depends on
//
// A package the detector imports cannot be instrumented, for instrumented
// code imports the detector. So the detector imports nothing but runtime,
// unsafe, sync, sync/atomic, math/bits, weak and runtime/metrics
// (closure_test.go checks it): it formats, parses, reads the environment,
// keeps time and makes system calls with its own small code and with
// functions the Go runtime provides to other packages (see the
// go:linkname directives), and its goroutines are hidden from the
// program (hidden.go).
package runtime
