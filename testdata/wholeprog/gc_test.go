package wholeprog

import (
	"runtime/debug"
	"testing"
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
func pauseGC(t *testing.T) {
	t.Helper()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}
