package runtime

import "time"

// Hooks into the watchpoint engine for the external tests.

// WatchEngines names the watchpoint engines this system can run: "sw"
// and, where perf_event_open allows it, "hw".
func WatchEngines() []string {
	if watcher().hw != nil {
		return []string{"sw", "hw"}
	}
	return []string{"sw"}
}

// UseWatchEngine installs the engine named name with the given time limit
// until restore is called.
func UseWatchEngine(name string, limit time.Duration) (restore func()) {
	orig := watcher()
	e := &engine{soft: true}
	if name == "hw" {
		e = orig
	}
	freeAll()
	setEngine(e)
	old := watchLimit.Swap(int64(limit))
	return func() {
		freeAll()
		setEngine(orig)
		watchLimit.Store(old)
	}
}

// WatchSettle makes the engine decide every access made so far.
func WatchSettle() { settle(curEngine.Load()) }

// Goid returns the calling goroutine's id as the detector knows it.
func Goid() int64 { return current().goid }
