package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goldenPaths is how the golden inputs' file names are shortened.
var goldenPaths = pathMap{ModRoot: "/home/user/golden", GOROOT: "/usr/local/go", ModCache: "/home/user/go/pkg/mod"}

// parseFile parses the go test -json output in testdata/name.
func parseFile(t *testing.T, name, modPath string, paths pathMap, killed bool) *testRun {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := parseTestJSON(f, modPath, paths, killed)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestParseTestJSON(t *testing.T) {
	for _, tt := range []struct {
		file    string
		modPath string
		killed  bool
		tests   map[string]string // test ID -> status; every test of the run
		pkgs    map[string]string // package ID -> status
		races   []string          // "test: pair", in order
		excerpt map[string]string // test or package ID -> a line its excerpt must hold
		setup   []string
	}{{
		file: "golden/go.json", modPath: "example.com/golden",
		tests: map[string]string{
			"TestRace": "pass", "TestMapRace": "pass", "TestSubtestOrder": "pass", "TestSubtestOrder/ok": "pass",
			"TestOK": "pass", "TestOK/a": "pass", "TestOK/b": "pass", "TestSkipped": "skip", "sub.TestEnv": "pass",
		},
		pkgs: map[string]string{".": "pass", "sub": "pass"},
	}, {
		file: "golden/race.json", modPath: "example.com/golden",
		tests: map[string]string{
			"TestRace": "fail", "TestMapRace": "fail", "TestSubtestOrder": "pass", "TestSubtestOrder/ok": "pass",
			"TestOK": "pass", "TestOK/a": "pass", "TestOK/b": "pass", "TestSkipped": "skip", "sub.TestEnv": "fail",
		},
		pkgs: map[string]string{".": "fail", "sub": "fail"},
		races: []string{
			"TestRace: counter.go:7 ↔ counter.go:7",
			"TestMapRace: counter.go:10 ↔ counter.go:10",
		},
		excerpt: map[string]string{
			"sub.TestEnv": "sub_test.go:10: GOLDEN_FAIL is set",
			"TestRace":    "race detected during execution of test",
		},
	}, {
		file: "golden/full.json", modPath: "example.com/golden",
		tests: map[string]string{
			"TestRace": "fail", "TestMapRace": "fail", "TestSubtestOrder": "fail", "TestSubtestOrder/ok": "pass",
			"TestOK": "pass", "TestOK/a": "pass", "TestOK/b": "pass", "TestSkipped": "skip", "sub.TestEnv": "pass",
		},
		pkgs: map[string]string{".": "fail", "sub": "pass"},
		races: []string{
			"TestRace: counter.go:7 ↔ counter.go:7",
			"TestMapRace: counter.go:10 ↔ counter.go:10",
			"TestSubtestOrder: counter_test.go:31 ↔ counter_test.go:32",
		},
	}, {
		// A package that does not build, a test binary that crashes and
		// one that reaches its -timeout.
		file: "buildfail.json", modPath: "example.com/bf",
		tests: map[string]string{
			"crash.TestOK": "pass", "crash.TestPanic": "no result",
			"slow.TestFast": "pass", "slow.TestSlow": "timeout", "slow.TestSlow/inner": "timeout",
		},
		pkgs: map[string]string{"broken": "build failed", "crash": "fail", "slow": "timeout"},
		excerpt: map[string]string{
			"broken":              `cannot use "x" (untyped string constant) as int value`,
			"crash.TestPanic":     "panic: boom",
			"slow.TestSlow/inner": "panic: test timed out after 3s",
		},
	}, {
		// The harness killed the run: what was running timed out.
		file: "killed.json", modPath: "example.com/bf", killed: true,
		tests: map[string]string{"slow.TestFast": "pass", "slow.TestSlow": "timeout", "slow.TestSlow/inner": "timeout"},
		pkgs:  map[string]string{"slow": "timeout"},
	}, {
		// racegen stopped before the go command tested anything.
		file: "setup.json", modPath: "example.com/golden",
		tests: map[string]string{}, pkgs: map[string]string{},
		setup: []string{"go: updates to go.mod needed; to update it:", "go mod tidy"},
	}} {
		t.Run(tt.file, func(t *testing.T) {
			tr := parseFile(t, tt.file, tt.modPath, pathMap{ModRoot: "/home/user/golden", GOROOT: "/usr/local/go"}, tt.killed)
			got := map[string]string{}
			for id, r := range tr.Tests {
				got[id] = r.Status
				if want := testID(r.Pkg, r.Name); want != id {
					t.Errorf("test %s has package %q and name %q", id, r.Pkg, r.Name)
				}
			}
			if !maps.Equal(got, tt.tests) {
				t.Errorf("tests:\ngot  %v\nwant %v", got, tt.tests)
			}
			gotPkgs := map[string]string{}
			for id, p := range tr.Packages {
				gotPkgs[id] = p.Status
			}
			if !maps.Equal(gotPkgs, tt.pkgs) {
				t.Errorf("packages:\ngot  %v\nwant %v", gotPkgs, tt.pkgs)
			}
			var races []string
			for _, r := range tr.Races {
				races = append(races, r.Test+": "+r.pairKey())
			}
			if !slices.Equal(races, tt.races) {
				t.Errorf("races:\ngot  %q\nwant %q", races, tt.races)
			}
			for id, line := range tt.excerpt {
				var ex []string
				if r := tr.Tests[id]; r != nil {
					ex = r.Excerpt
				} else if p := tr.Packages[id]; p != nil {
					ex = p.Excerpt
				}
				if !slices.ContainsFunc(ex, func(l string) bool { return strings.Contains(l, line) }) {
					t.Errorf("excerpt of %s = %q, want a line with %q", id, ex, line)
				}
			}
			if !slices.Equal(tr.Setup, tt.setup) {
				t.Errorf("setup = %q, want %q", tr.Setup, tt.setup)
			}
		})
	}
}

// TestExcerptKeepsRaceLine checks that testing's race line stays in the
// excerpt of a test that logged more than excerptLines lines first.
func TestExcerptKeepsRaceLine(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"Action":"run","Package":"example.com/m","Test":"TestLoud"}` + "\n")
	for range excerptLines + 2 {
		b.WriteString(`{"Action":"output","Package":"example.com/m","Test":"TestLoud","Output":"    m_test.go:5: serving\n"}` + "\n")
	}
	b.WriteString(`{"Action":"output","Package":"example.com/m","Test":"TestLoud","Output":"    m_test.go:9: race detected during execution of test\n"}` + "\n")
	b.WriteString(`{"Action":"fail","Package":"example.com/m","Test":"TestLoud"}` + "\n")
	tr, err := parseTestJSON(strings.NewReader(b.String()), "example.com/m", pathMap{}, false)
	if err != nil {
		t.Fatal(err)
	}
	ex := tr.Tests["TestLoud"].Excerpt
	if len(ex) != excerptLines+1 || !strings.Contains(ex[len(ex)-1], raceDetectedLine) {
		t.Errorf("excerpt = %q, want %d lines ending with testing's race line", ex, excerptLines+1)
	}
}

// TestParseRepeated checks the counts of a test run with -count=3.
func TestParseRepeated(t *testing.T) {
	var b strings.Builder
	for _, action := range []string{"pass", "fail", "pass"} {
		b.WriteString(`{"Action":"run","Package":"example.com/m","Test":"TestFlaky"}` + "\n")
		if action == "fail" {
			b.WriteString(`{"Action":"output","Package":"example.com/m","Test":"TestFlaky","Output":"    m_test.go:9: too slow\n"}` + "\n")
		}
		b.WriteString(`{"Action":"` + action + `","Package":"example.com/m","Test":"TestFlaky"}` + "\n")
	}
	b.WriteString(`{"Action":"fail","Package":"example.com/m"}` + "\n")
	tr, err := parseTestJSON(strings.NewReader(b.String()), "example.com/m", pathMap{}, false)
	if err != nil {
		t.Fatal(err)
	}
	r := tr.Tests["TestFlaky"]
	if r == nil || r.Runs != 3 || r.Fails != 1 || r.Status != "pass" || !slices.Equal(r.Excerpt, []string{"    m_test.go:9: too slow"}) {
		t.Errorf("TestFlaky = %+v, want 3 runs, 1 failure, last pass, the failure's line", r)
	}
}
