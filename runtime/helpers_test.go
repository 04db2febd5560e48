package runtime_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	rt "github.com/racegen/racegen/runtime"
)

// The tests drive the hooks from real goroutines the way instrumented code
// does. Orders that the detector must not see are forced with plain Go
// channels, which the detector does not observe: both accesses of a racy
// pair really run, in a known order, with no happens-before edge recorded
// between them.

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		runChild()
		return
	}
	// Reports go to a buffer that tests inspect, not to stderr.
	rt.SetOutput(&reports)
	// A GC cycle between the two accesses of a racy pair on heap memory
	// makes the detector drop the first access's history (the object
	// might have been freed). Tests that need the GC turn it back on
	// with enableGC.
	debug.SetGCPercent(-1)
	os.Exit(m.Run())
}

// reports collects every report the detector writes.
var reports syncBuffer

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

// since returns what was written after offset off.
func (s *syncBuffer) since(off int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()[off:]
}

// goCommand returns the path of the go command, for the tests that build
// programs, and skips the test where there is none.
func goCommand(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return goCmd
}

// enableGC turns the garbage collector on for the rest of the test.
func enableGC(t *testing.T) {
	t.Helper()
	debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(-1) })
}

// sink makes variables escape, so that they live on the heap: the detector
// ignores the accessing goroutine's own stack.
var sink atomic.Pointer[any]

func escape(p any) { sink.Store(&p) }

// kept holds every variable newVar made, for the life of the test binary.
// The tests hand the detector bare addresses, which do not keep an object
// alive the way the load or store after an instrumented hook does: an
// object kept only by sink could be freed, and its address given to
// another object, while a test still "accesses" it.
var kept struct {
	sync.Mutex
	vars []*[8]byte
}

// newObject returns a fresh 8-byte heap variable, kept alive for the
// rest of the test binary, as the pointer that the hooks take.
func newObject() unsafe.Pointer {
	p := new([8]byte)
	kept.Lock()
	kept.vars = append(kept.vars, p)
	kept.Unlock()
	return unsafe.Pointer(p)
}

// Site ids: every site gets a package key of its own, so that a test can
// register a site without knowing the others and every pair of sites is
// new to the once-per-pair report filter.
var siteKey atomic.Uint32

// siteAt registers a site at the given position and returns its id.
func siteAt(file string, line int, fn string) uint64 {
	key := 0x7e570000 + siteKey.Add(1)
	rt.RegisterSites(key, fmt.Sprintf("%s:%d:1\t%s\n", file, line, fn))
	id := uint64(key)<<32 | 1
	sitePositions.Store(id, fmt.Sprintf("%s:%d", file, line))
	return id
}

var sitePositions sync.Map // site id -> "file:line"

// sitePos returns the "file:line" a site was registered with.
func sitePos(site uint64) string {
	p, _ := sitePositions.Load(site)
	return p.(string)
}

// newSite registers a site at the caller's position.
func newSite() uint64 {
	pc, file, line, _ := runtime.Caller(1)
	return siteAt(file, line, runtime.FuncForPC(pc).Name())
}

// goInstr starts f the way the instrumenter rewrites a go statement and
// returns a channel, unseen by the detector, closed when f has returned.
func goInstr(f func()) <-chan struct{} {
	done := make(chan struct{})
	g := rt.GoFork()
	go func() {
		rt.GoStart(g)
		// done is closed after GoEnd, so that a report made after
		// waiting for it sees the goroutine finished.
		defer close(done)
		defer rt.GoEnd()
		f()
	}()
	return done
}

// expectRaces runs f and checks that it made the detector report want
// races. It returns the reports written meanwhile.
func expectRaces(t *testing.T, want int, f func()) string {
	t.Helper()
	rt.SyncGCGen()
	off := reports.Len()
	before := rt.Races()
	f()
	got := rt.Races() - before
	text := reports.since(off)
	if got != want {
		t.Errorf("got %d races, want %d; reports:\n%s", got, want, text)
	}
	return text
}
