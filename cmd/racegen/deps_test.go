package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// poolSrc is a buffer pool in a module of its own, a dependency of the
// main module, whose mutex orders a Put before the Get that returns the
// same buffer: the detector sees that only if it instruments the
// dependency (and the sync.Pool behind it).
const poolSrc = `package pool

import "sync"

type Buf struct{ B []byte }

var (
	mu   sync.Mutex
	free []*Buf
	fall = sync.Pool{New: func() any { return new(Buf) }}

	// Gets counts the calls of Get, without the lock when RACY.
	Gets int
)

func Get() *Buf {
	if RACY {
		Gets++ // race
	}
	mu.Lock()
	defer mu.Unlock()
	if n := len(free); n > 0 {
		b := free[n-1]
		free = free[:n-1]
		return b
	}
	return fall.Get().(*Buf)
}

func Put(b *Buf) {
	mu.Lock()
	free = append(free, b)
	mu.Unlock()
}
`

// depsMain has goroutines reuse the pool's buffers; with racy set, two
// other goroutines also race on a counter, without touching the pool,
// and the pool counts its Gets without its lock.
const depsMain = `package main

import (
	"fmt"
	"sync"

	"example.com/pool"
)

var counter int

func main() {
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				b := pool.Get()
				b.B = append(b.B[:0], byte(i), byte(g))
				if b.B[0] != byte(i) {
					panic("corrupt buffer")
				}
				pool.Put(b)
			}
		}()
	}
	if RACY {
		for g := 0; g < 2; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				counter++ // race
			}()
		}
	}
	wg.Wait()
	fmt.Println("done")
}
`

// depsModules writes module example.com/a, whose go.mod replaces
// example.com/pool with a sibling directory, and that module, and returns
// the directory of example.com/a.
func depsModules(t *testing.T, racy bool) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"pool/go.mod":  "module example.com/pool\n\ngo 1.24\n",
		"pool/pool.go": strings.ReplaceAll(poolSrc, "if RACY", "if "+map[bool]string{false: "false", true: "true"}[racy]),
		"a/go.mod":     "module example.com/a\n\ngo 1.24\n\nrequire example.com/pool v0.0.0\n\nreplace example.com/pool => ../pool\n",
		"a/main.go":    strings.Replace(depsMain, "RACY", map[bool]string{false: "false", true: "true"}[racy], 1),
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, "a")
}

// TestDependency checks that a dependency is instrumented: its
// synchronization (a buffer pool, as bytebufferpool under fasthttp)
// produces no false report, and a race inside it is reported beside a
// genuine race in the main module.
func TestDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	out := testOut
	for _, racy := range []bool{false, true} {
		name := map[bool]string{false: "pool", true: "pool_racy"}[racy]
		t.Run(name, func(t *testing.T) {
			mod := depsModules(t, racy)
			var stdout, stderr bytes.Buffer
			code := run([]string{"-o", out, "run", "-C", mod, "."}, &stdout, &stderr)
			msg := stderr.String()
			if stdout.String() != "done\n" {
				t.Errorf("stdout %q, want done", stdout.String())
			}
			reported := strings.Contains(msg, "WARNING: DATA RACE")
			if !racy {
				if code != 0 || reported {
					t.Fatalf("race-free program: racegen run exit %d; stderr:\n%s", code, msg)
				}
				return
			}
			if code != 1 || !strings.Contains(msg, "exit status 66") || !reported {
				t.Fatalf("racy program: racegen run exit %d, want 1 after exit status 66 and a report; stderr:\n%s", code, msg)
			}
			// Both races are reported: the one in the main module and
			// the one inside the dependency, which racegen instruments.
			marks := append(markedLines(t, mod), markedLines(t, filepath.Join(filepath.Dir(mod), "pool"))...)
			seen := map[string]bool{}
			for _, r := range racePositions(msg) {
				if r[0] != r[1] || !slices.Contains(marks, r[0]) {
					t.Errorf("report at %v, want one of %v on both sides; stderr:\n%s", r, marks, msg)
				}
				seen[r[0]] = true
			}
			if len(seen) != 2 {
				t.Errorf("reported %v, want both races %v; stderr:\n%s", seen, marks, msg)
			}
		})
	}
}
