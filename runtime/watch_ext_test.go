package runtime_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	rt "github.com/racegen/racegen/runtime"
)

// watchExtPkg is the package key of the report test's sites; each run
// registers a new key so that -count=N runs are not deduplicated.
var watchExtPkg atomic.Uint64

//go:noinline
func firstAccess(x *uint64, pkg uint64) { *rt.SW(x, pkg<<32|1) = 1 }

//go:noinline
func secondAccess(x *uint64, pkg uint64) uint64 { return *rt.CR(x, pkg<<32|2) }

// TestWatchReport checks that a clock race names both goroutines and
// both accesses' stacks, on every engine.
func TestWatchReport(t *testing.T) {
	for _, name := range rt.WatchEngines() {
		t.Run(name, func(t *testing.T) {
			// A limit the scheduler cannot exceed between the two
			// accesses, however loaded the machine.
			defer rt.UseWatchEngine(name, time.Minute)()
			var buf bytes.Buffer
			defer rt.SetOutput(&buf)()
			pkg := 0x7e580000 + watchExtPkg.Add(1)
			rt.RegisterSites(uint32(pkg), "watch_ext_test.go:40:3\truntime_test.firstAccess\n")
			x := new(uint64)
			escape(x)
			ready, done := make(chan struct{}), make(chan struct{})
			var aGoid, bGoid int64
			go func() {
				aGoid = rt.Goid()
				firstAccess(x, pkg)
				close(ready)
				<-done
			}()
			go func() {
				defer close(done)
				<-ready
				bGoid = rt.Goid()
				secondAccess(x, pkg)
			}()
			<-done
			rt.WatchSettle()
			rep := buf.String()
			op := "Read at"
			if name == "hw" {
				op = "Read or write at" // a read/write breakpoint does not say which
			}
			for _, want := range []string{
				"WARNING: DATA RACE",
				fmt.Sprintf("%s 0x%012x by goroutine %d:", op, addr(x), bGoid),
				"runtime_test.secondAccess()",
				"watch_ext_test.go:23 +0x",
				"runtime_test.TestWatchReport.func1.2()",
				fmt.Sprintf("Previous write at 0x%012x by goroutine %d:", addr(x), aGoid),
				// The first access's stack, taken when it armed,
				// rather than its site's registered position (40).
				"runtime_test.firstAccess()",
				"watch_ext_test.go:20 +0x",
				"runtime_test.TestWatchReport.func1.1()",
			} {
				if !strings.Contains(rep, want) {
					t.Errorf("report lacks %q:\n%s", want, rep)
				}
			}
		})
	}
}

func addr(p *uint64) uintptr { return uintptr(unsafe.Pointer(p)) }
