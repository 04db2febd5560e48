package wholeprog

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// pauseGC turns the collector off until t and its cleanups end.
//
// racegen misses a race whose two accesses straddle a GC cycle: with no
// free hook, it cannot tell the object of the first access from a new
// one at the same address (docs/runtime.md, "GC generations and memory
// reuse"). The tests that call pauseGC separate their two accesses by a
// sleep, a timer or a goroutine's wake-up, which a loaded machine can
// stretch across a cycle: with GOGC=1 and every core busy, they missed
// their race in about 1 run in 10 to 1 in 40. They are about where the
// accesses and the synchronization live, not about the collector.
//
// The detector learns that a cycle has ended from a finalizer, which
// runs once the sweeper has reached it and the finalizer goroutine is
// scheduled, and until then it counts histories as begun before the
// cycle. debug.SetGCPercent(-1) waits for a cycle in progress to end, so
// a test began in that window: TestRaceOSPipeWriteAfter missed its race
// in 14 of 60 runs of the corpus. pauseGC therefore ends with a cycle
// of its own, swept by the time runtime.GC returns, and a sleep, in
// which the finalizer goroutine runs.
func pauseGC(t *testing.T) {
	t.Helper()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	runtime.GC()
	time.Sleep(time.Millisecond)
}
