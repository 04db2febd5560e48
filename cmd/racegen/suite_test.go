package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The reference corpus is Go's own race-detector suite,
// $GOROOT/src/runtime/race/testdata, scored the way
// runtime/race/race_test.go scores it: a test named TestRace* must report
// a race, a test named TestNoRace* must not.
//
// TestRaceSuite runs a subset under racegen in every go test run, so that
// agreement cannot regress. With RACEGEN_SUITE=all it runs every file, and
// also runs go test -race on the same files for comparison: that is
// make eval-corpus.

// suiteSkip lists the files that cannot run outside GOROOT: they import
// internal packages (internal/testenv, internal/synctest) or use cgo.
var suiteSkip = []string{"cgo_test.go", "cgo_test_main.go", "synctest_test.go"}

// suiteEdits are the adaptations the files need outside a -race build,
// applied for both detectors. runtime.RaceDisable exists only in -race
// builds; TestNoRaceIssue60934 calls it to check that its effect does not
// leak into new goroutines, and without it the test still checks that the
// edges after it are seen.
//
// TestRaceChanWrongClose assumes its first goroutine sends within 10 ms,
// before the second closes the channel; otherwise the send panics, the
// deferred recover swallows it, the goroutine never signals done and the
// test waits forever. TestNoRaceDeferAtomicStore leaves 4,096 goroutines
// calling runtime.GC() behind it, which can delay the first goroutine that
// long at GOMAXPROCS=1; the adaptation signals done from the deferred
// function, so the test finishes whichever way the timing falls.
var suiteEdits = map[string][][2]string{
	"mop_test.go": {{"runtime.RaceDisable()", "_ = 0 // runtime.RaceDisable(): -race only"}},
	"chan_test.go": {{`	go func() {
		defer func() {
			recover()
		}()
		v1 = 1
		c <- 1
		done <- true
	}()`, `	go func() {
		defer func() {
			recover()
			done <- true // adapted: also when the send panics
		}()
		v1 = 1
		c <- 1
	}()`}},
}

// suiteSubset is what runs by default: the files about language-level
// accesses and the synchronization racegen models.
var suiteSubset = []string{"main_test.go", "mop_test.go", "chan_test.go", "mutex_test.go",
	"rwmutex_test.go", "waitgroup_test.go", "select_test.go", "sync_test.go", "atomic_test.go"}

// A verdict is whether a test reported a race.
type verdict struct {
	race    bool
	skipped bool
	output  string // the test's lines, shown for false reports
}

func TestRaceSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs Go's race suite")
	}
	all := os.Getenv("RACEGEN_SUITE") == "all"
	dir := suiteModule(t, suiteSrc(), suiteFiles(t, all))
	// Reports go to stdout, the pipe testing writes "=== RUN" lines to:
	// go test copies a test binary's stdout and stderr separately, so a
	// report written to stderr can land under the heading of a later test
	// (the race in regression_test.go's package initialization did).
	//
	// RACEGEN_SUITE_RATE=r runs the suite at sampling rate r instead of 1:
	// then only false reports count, since races are found with
	// probability about r. RACEGEN_SUITE_OPTIONS adds run-time options
	// (fresa=1, say), which may lose races too: only false reports count
	// with them as well.
	options := "log_path=stdout"
	rate := os.Getenv("RACEGEN_SUITE_RATE")
	if rate != "" {
		options += " rate=" + rate
	}
	extra := os.Getenv("RACEGEN_SUITE_OPTIONS")
	if extra != "" {
		options += " " + extra
	}
	exact := rate == "" && extra == ""
	env := []string{"GOMAXPROCS=1", "GOFLAGS=-count=1", "RACEGEN_OPTIONS=" + options}

	var out bytes.Buffer
	code := runWithEnv(t, env, []string{"-o", testOut, "test", "-C", dir, "-v", "-timeout=8m", "."}, &out)
	if strings.Contains(out.String(), "panic: test timed out") {
		t.Errorf("the suite timed out:\n%s", tail(out.String(), 6000))
	}
	if code == 0 && exact {
		t.Errorf("racegen test exited 0; the suite's races must fail it")
	}
	got, byFile := parseSuite(t, out.String(), dir)
	if len(got) == 0 {
		t.Fatalf("no tests ran:\n%s", tail(out.String(), 3000))
	}

	var want map[string]verdict
	if all {
		cmd := exec.Command("go", "test", "-race", "-v", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GORACE=suppress_equal_stacks=0 suppress_equal_addresses=0 atexit_sleep_ms=0", "GOFLAGS=-count=1")
		raceOut, _ := cmd.CombinedOutput()
		want, _ = parseSuite(t, string(raceOut), dir)
	}
	score(t, got, want, byFile, exact)
}

// suiteSrc is the directory of Go's race suite.
func suiteSrc() string {
	return filepath.Join(runtime.GOROOT(), "src", "runtime", "race", "testdata")
}

// suiteFiles returns the suite's files to run: the subset, or with all
// every file that can run outside GOROOT.
func suiteFiles(t *testing.T, all bool) []string {
	t.Helper()
	if !all {
		return suiteSubset
	}
	ents, err := os.ReadDir(suiteSrc())
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), "_test.go") && !slices.Contains(suiteSkip, e.Name()) {
			files = append(files, e.Name())
		}
	}
	return files
}

// suiteModule copies the chosen files into a fresh module.
func suiteModule(t *testing.T, src string, files []string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module racesuite\n\ngo 1.24\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range suiteEdits[f] {
			if !bytes.Contains(b, []byte(e[0])) {
				t.Fatalf("%s no longer contains %q: review suiteEdits", f, e[0])
			}
			b = bytes.ReplaceAll(b, []byte(e[0]), []byte(e[1]))
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// parseSuite splits go test -v output into each test's lines and returns
// the verdict of every TestRace* and TestNoRace* test, and the file each
// test is declared in.
func parseSuite(t *testing.T, out, dir string) (map[string]verdict, map[string]string) {
	t.Helper()
	got := map[string]verdict{}
	cur := ""
	var lines []string
	flush := func() {
		if cur == "" {
			return
		}
		v := verdict{output: strings.Join(lines, "\n")}
		for i, l := range lines {
			if strings.Contains(l, "DATA RACE") && !initRace(lines[i:]) || strings.Contains(l, "fatal error: concurrent map") {
				v.race = true
			}
			if strings.Contains(l, "--- SKIP:") {
				v.skipped = true
			}
		}
		if strings.HasPrefix(cur, "TestRace") || strings.HasPrefix(cur, "TestNoRace") {
			got[cur] = v
		}
		cur, lines = "", nil
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if name, ok := strings.CutPrefix(l, "=== RUN   "); ok {
			flush()
			cur = name
			continue
		}
		lines = append(lines, l)
	}
	flush()
	return got, testFiles(t, dir)
}

// initRace reports whether the report starting at lines[0] is of a race in
// package initialization, which both detectors report before the first
// test (regression_test.go's NewLog races during init); its output can
// still land under the first test's heading, since go test copies the
// output of goroutines as they run, so it is attributed to no test.
func initRace(lines []string) bool {
	for _, l := range lines[1:] {
		if l == "==================" {
			return false
		}
		if strings.Contains(l, ".init()") || strings.HasPrefix(strings.TrimSpace(l), "runtime.doInit") {
			return true
		}
	}
	return false
}

// testFiles maps test names to the file that declares them.
func testFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(l, "func Test"); ok {
				if i := strings.IndexByte(rest, '('); i > 0 {
					m["Test"+rest[:i]] = e.Name()
				}
			}
		}
	}
	return m
}

// score prints per-file agreement and fails on any false report, and, in
// the subset run at rate 1 (floor), on a detection rate below the floor.
func score(t *testing.T, got, want map[string]verdict, byFile map[string]string, floor bool) {
	t.Helper()
	type tally struct{ races, found, noRaces, falsePos, refFound, both int }
	per := map[string]*tally{}
	var total tally
	var misses, falsePos []string
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := got[n]
		if v.skipped {
			continue
		}
		f := byFile[n]
		if per[f] == nil {
			per[f] = &tally{}
		}
		for _, tl := range []*tally{per[f], &total} {
			if strings.HasPrefix(n, "TestRace") {
				tl.races++
				if v.race {
					tl.found++
				}
				if w, ok := want[n]; ok && w.race {
					tl.refFound++
					if v.race {
						tl.both++
					}
				}
			} else {
				tl.noRaces++
				if v.race {
					tl.falsePos++
				}
			}
		}
		switch {
		case strings.HasPrefix(n, "TestNoRace") && v.race:
			falsePos = append(falsePos, n)
		case strings.HasPrefix(n, "TestRace") && !v.race:
			misses = append(misses, n)
		}
	}
	files := make([]string, 0, len(per))
	for f := range per {
		files = append(files, f)
	}
	sort.Strings(files)
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %14s %14s %12s\n", "file", "TestRace found", "of -race's", "false pos")
	row := func(name string, tl *tally) {
		ref := "-"
		if want != nil {
			ref = fmt.Sprintf("%d/%d", tl.both, tl.refFound)
		}
		fmt.Fprintf(&b, "%-22s %14s %14s %12s\n", name, fmt.Sprintf("%d/%d", tl.found, tl.races), ref, fmt.Sprintf("%d/%d", tl.falsePos, tl.noRaces))
	}
	for _, f := range files {
		row(f, per[f])
	}
	row("total", &total)
	t.Logf("race suite agreement:\n%s", b.String())
	if len(misses) > 0 {
		t.Logf("TestRace* not reported (%d): %s", len(misses), strings.Join(misses, " "))
	}
	if len(falsePos) > 0 {
		for _, n := range falsePos {
			t.Logf("output of %s:\n%s", n, got[n].output)
		}
		t.Errorf("TestNoRace* reported a race (%d): %s", len(falsePos), strings.Join(falsePos, " "))
	}
	if floor && want == nil && total.races > 0 && float64(total.found) < suiteFloor*float64(total.races) {
		t.Errorf("found %d of %d TestRace* tests, below the floor of %.0f%%", total.found, total.races, 100*suiteFloor)
	}
}

// suiteFloor is the share of the subset's TestRace* tests racegen must
// report; raise it as detection improves.
const suiteFloor = 0.80

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// TestInitRace checks which reports initRace takes for races in package
// initialization: regression_test.go's NewLog, as dynamic mode reports it
// (the goroutine's creation stack leads to init) and as a static build
// does (the first access's stack, taken when it armed, does), and a race
// in a test, which it must not take.
func TestInitRace(t *testing.T) {
	tests := []struct {
		name   string
		report string
		want   bool
	}{
		{"dynamic", `WARNING: DATA RACE
Read at 0x00c000012345 by goroutine 5:
  racesuite_test.NewLog.func1()
      regression_test.go:20 +0x3a

Previous write at 0x00c000012345 by main goroutine:
  racesuite_test.NewLog()
      regression_test.go:23

Goroutine 5 (running) created at:
  racesuite_test.NewLog()
      regression_test.go:19 +0x8c
  racesuite_test.init()
      regression_test.go:28 +0x1d
==================`, true},
		{"static", `WARNING: DATA RACE
Read or write at 0x17528c0cc190 by goroutine 22:
  racesuite_test.NewLog.func1()
      regression_test.go:20 +0x63

Previous write at 0x17528c0cc190 by main goroutine:
  racesuite_test.NewLog()
      regression_test.go:23 +0x9e
  racesuite_test.init()
      regression_test.go:28 +0x1d
  runtime.doInit1()
      proc.go:7410 +0xfe

Goroutine 22 (running) created at:
==================`, true},
		{"in a test", `WARNING: DATA RACE
Write at 0x00c000012345 by goroutine 7:
  racesuite_test.TestRaceIntRWGlobalFuncs.func1()
      mop_test.go:112 +0x2e

Previous read at 0x00c000012345 by goroutine 6:
  racesuite_test.TestRaceIntRWGlobalFuncs()
      mop_test.go:118 +0x51
==================`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := initRace(strings.Split(tt.report, "\n")); got != tt.want {
				t.Errorf("initRace = %v, want %v", got, tt.want)
			}
		})
	}
}
