package runtime_test

import (
	"bytes"
	"context"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	rt "github.com/racegen/racegen/runtime"
)

// goSpawn starts f as the rewriter rewrites a go statement of a function
// that is not a literal, and returns a channel, unseen by the detector,
// closed when f has returned.
func goSpawn(f func()) <-chan struct{} {
	done := make(chan struct{})
	run := func() { defer close(done); f() }
	s := rt.GoSpawn()
	go run()
	rt.GoSpawned(s)
	return done
}

// TestSpawn checks the edges of a spawned goroutine: ordered after what
// its parent did before the go statement, concurrent with what it does
// after.
func TestSpawn(t *testing.T) {
	before, after := newObject(), newObject()
	s1, s2, s3, s4 := newSite(), newSite(), newSite(), newSite()
	text := expectRaces(t, 1, func() {
		rt.Write(before, 8, s1)
		parentWrote := make(chan struct{})
		done := goSpawn(func() {
			rt.Write(before, 8, s2)
			<-parentWrote
			rt.Write(after, 8, s4)
		})
		rt.Write(after, 8, s3)
		close(parentWrote)
		<-done
	})
	if !strings.Contains(text, sitePos(s3)) || !strings.Contains(text, "created at") {
		t.Errorf("report does not name the parent's write at %s or the creation:\n%s", sitePos(s3), text)
	}
}

// TestSpawnLabels checks that a spawned goroutine's profiler labels are
// its creator's, both before its first hook, when runtime/pprof reads the
// spawn record as a label set, and after, when it has its creator's label
// pointer back; and that the creator has its own back after the go
// statement.
func TestSpawnLabels(t *testing.T) {
	ctx := pprof.WithLabels(context.Background(), pprof.Labels("racegen", "spawn-test"))
	pprof.SetGoroutineLabels(ctx)
	defer pprof.SetGoroutineLabels(context.Background())
	mine := rt.ProfLabel()

	started, hook, hooked, release := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	var afterHook any
	done := goSpawn(func() {
		close(started)
		<-hook
		rt.Write(newObject(), 8, newSite()) // the first hook takes the spawn
		afterHook = rt.ProfLabel()
		close(hooked)
		<-release
	})
	if got := rt.ProfLabel(); got != mine {
		t.Errorf("creator's labels after the go statement: %p, want %p", got, mine)
	}
	<-started
	checkProfileLabels(t, "before its first hook")
	close(hook)
	<-hooked
	checkProfileLabels(t, "after its first hook")
	close(release)
	<-done
	if afterHook != mine {
		t.Errorf("spawned goroutine's labels after its first hook: %p, want its creator's %p", afterHook, mine)
	}
}

// checkProfileLabels checks that the goroutine profile gives the spawned
// goroutine of TestSpawnLabels its creator's labels.
func checkProfileLabels(t *testing.T, when string) {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		t.Fatal(err)
	}
	for _, group := range strings.Split(buf.String(), "\n\n") {
		if strings.Contains(group, "TestSpawnLabels.func") && !strings.Contains(group, "testing.tRunner") {
			if !strings.Contains(group, `# labels: {"racegen":"spawn-test"}`) {
				t.Errorf("%s, the goroutine profile gives the spawned goroutine other labels:\n%s", when, group)
			}
			return
		}
	}
	t.Errorf("%s, the spawned goroutine is not in the goroutine profile:\n%s", when, buf.String())
}

// TestSpawnMany starts more goroutines that call no hook than there are
// slots, and far more than a table bounded by count would keep, beside
// one that calls its first hook after all of them: it must still find its
// spawn, so that the parent's write after the go statement races with its
// own (a goroutine registered as one racegen did not start would be
// ordered after it). Once the idle goroutines have ended, the sweeper
// forgets their entries within a few GC cycles.
func TestSpawnMany(t *testing.T) {
	x := newObject()
	s1, s2 := newSite(), newSite()
	expectRaces(t, 1, func() {
		release := make(chan struct{})
		first := goSpawn(func() {
			<-release
			rt.Write(x, 8, s2)
		})
		var idle []<-chan struct{}
		for range 100_000 {
			idle = append(idle, goSpawn(func() {}))
		}
		rt.Write(x, 8, s1)
		close(release)
		<-first
		for _, d := range idle {
			<-d
		}
	})
	enableGC(t)
	for range 4 {
		runtime.GC()
	}
	rt.Sweep()
	if n := rt.PendingSpawns(); n > 0 {
		t.Errorf("%d spawns pending after every goroutine ended", n)
	}
}
