package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reportOf returns the one race block of the file name under
// testdata/reports, through raceScanner as a run's output would go.
func reportOf(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reports", name))
	if err != nil {
		t.Fatal(err)
	}
	var s raceScanner
	var blocks [][]string
	for line := range strings.Lines(string(data)) {
		if b := s.line(line); b != nil {
			blocks = append(blocks, append([]string(nil), b...))
		}
	}
	if b := s.flush(); b != nil {
		blocks = append(blocks, b)
	}
	if len(blocks) != 1 {
		t.Fatalf("%s: %d race blocks, want 1", name, len(blocks))
	}
	return blocks[0]
}

func TestReduceReport(t *testing.T) {
	for _, tt := range []struct {
		file    string
		modRoot string
		want    raceReport
	}{{
		// -race's map write: its stacks start in the runtime.
		file: "race-map.txt", modRoot: "/home/user/golden",
		want: raceReport{
			Locs: [2]loc{
				{"example.com/golden.Put", "counter.go:10"},
				{"example.com/golden.Put", "counter.go:10"}},
			Kinds: [2]string{"Write", "Previous write"},
		},
	}, {
		// racegen's report: the previous access has its top frame only,
		// without a PC offset, and a creation stack is empty (issue 18
		// item 3). The pair is ordered by position, whichever came first.
		file: "racegen-subtest.txt", modRoot: "/home/user/atomic",
		want: raceReport{
			Locs: [2]loc{
				{"go.uber.org/atomic.TestString.func2", "string_test.go:56"},
				{"go.uber.org/atomic.TestString", "string_test.go:66"}},
			Kinds: [2]string{"Previous read", "Write"},
		},
	}, {
		file: "race-nostack.txt", modRoot: "/home/user/m",
		want: raceReport{
			Locs:  [2]loc{{"", "?"}, {"example.com/m.reader", "m.go:12"}},
			Kinds: [2]string{"Previous write", "Read"},
		},
	}, {
		// The main goroutine; a frame of racegen's runtime and one in the
		// module cache.
		file: "race-main.txt", modRoot: "/home/user/m",
		want: raceReport{
			Locs: [2]loc{
				{"main.fill", "cmd/fill/main.go:9"},
				{"gopkg.in/yaml%2ev3.(*decoder).scalar", "gopkg.in/yaml.v3@v3.0.1/decode.go:640"}},
			Kinds: [2]string{"Write", "Previous read"},
		},
	}} {
		t.Run(tt.file, func(t *testing.T) {
			p := pathMap{ModRoot: tt.modRoot, GOROOT: "/usr/local/go", ModCache: "/home/user/go/pkg/mod"}
			got := p.reduceReport("TestX", reportOf(t, tt.file))
			tt.want.Test = "TestX"
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestInStd(t *testing.T) {
	p := pathMap{GOROOT: "/usr/local/go"}
	for _, tt := range []struct {
		f    frame
		want bool
	}{
		{frame{Func: "runtime.mapassign_fast64", File: "/usr/local/go/src/internal/runtime/maps/runtime_fast64.go"}, true},
		{frame{Func: "sync/atomic.AddInt32", File: "/elsewhere/atomic.go"}, true},
		{frame{Func: "testing.tRunner", File: "testing/testing.go"}, true}, // -trimpath
		{frame{Func: "github.com/racegen/racegen/runtime.Read", File: "/cache/rt/access.go"}, true},
		{frame{Func: "main.main", File: "/home/user/m/main.go"}, false},
		{frame{Func: "example.com/m.(*T).M.func1", File: "/home/user/m/m.go"}, false},
		{frame{Func: "golang.org/x/sync/errgroup.(*Group).Go", File: "/mod/errgroup.go"}, false},
	} {
		if got := p.inStd(tt.f); got != tt.want {
			t.Errorf("inStd(%s) = %v, want %v", tt.f.Func, got, tt.want)
		}
	}
}

func TestFuncPackage(t *testing.T) {
	for fn, want := range map[string]string{
		"example.com/m/z.(*T).M":   "example.com/m/z",
		"runtime.mapassign_fast64": "runtime",
		"go.uber.org/atomic.TestX": "go.uber.org/atomic",
		// Stacks escape the dots of a path's last element.
		"gopkg.in/yaml%2ev3.(*d).f":  "gopkg.in/yaml%2ev3",
		"example.com/m.F.func1.gowr": "example.com/m",
	} {
		if got := funcPackage(fn); got != want {
			t.Errorf("funcPackage(%q) = %q, want %q", fn, got, want)
		}
	}
}
