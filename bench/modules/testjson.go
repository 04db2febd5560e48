package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// A testEvent is one line of go test -json (see go doc cmd/test2json).
// Build output comes as events with ImportPath instead of Package.
type testEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	Elapsed     float64
	FailedBuild string
	ImportPath  string
}

// Statuses of tests and packages.
const (
	statusPass = "pass"
	statusFail = "fail"
	statusSkip = "skip" // a skipped test; a package with no test files
	// statusTimeout: the test was running when its binary's -timeout
	// fired or the harness stopped the run; a package that timed out.
	statusTimeout = "timeout"
	// statusNoResult: the test was running when its binary exited
	// without a verdict (a panic in another goroutine, a fatal error,
	// os.Exit); a package the run never finished.
	statusNoResult = "no result"
	statusBuild    = "build failed" // packages only
	// statusAbsent is not recorded: it is what comparisons call a test
	// or package that a run has no trace of.
	statusAbsent = "absent"
)

// excerptLines is how many lines of a failure's output a result keeps.
const excerptLines = 8

// A testResult is what a run says about one test.
type testResult struct {
	Pkg     string  `json:"pkg"`  // package ID
	Name    string  `json:"name"` // the test's name in its package
	Status  string  `json:"status"`
	Elapsed float64 `json:"elapsed,omitempty"`
	// Runs and Fails count the test's verdicts, for runs with -count
	// above 1; Status is the last one.
	Runs  int `json:"runs"`
	Fails int `json:"fails,omitempty"`
	// Excerpt is the first lines of the output of a test that did not
	// pass, without race reports (they are in testRun.Races) and
	// without the test framework's own lines.
	Excerpt []string `json:"excerpt,omitempty"`
}

// A pkgResult is what a run says about one package.
type pkgResult struct {
	Status  string  `json:"status"`
	Elapsed float64 `json:"elapsed,omitempty"`
	// Excerpt is the build output of a package that did not build, or
	// the first lines a failed package printed outside any test (such
	// as goleak's report from TestMain, or a panic).
	Excerpt []string `json:"excerpt,omitempty"`
}

// A testRun is what one go test -json run of a module's packages says.
type testRun struct {
	Packages map[string]*pkgResult  `json:"packages"` // by package ID (see pkgID)
	Tests    map[string]*testResult `json:"tests"`    // by test ID (see testID)
	Races    []raceReport           `json:"races,omitempty"`
	// Setup holds the lines of the output that are not JSON: the go
	// command's or racegen's own messages, such as "go: updates to
	// go.mod needed".
	Setup []string `json:"setup,omitempty"`
}

// pkgID names a package of module modPath by its path relative to the
// module root: "." for the root package, "z" for modPath/z.
func pkgID(importPath, modPath string) string {
	if importPath == modPath {
		return "."
	}
	if rel, ok := strings.CutPrefix(importPath, modPath+"/"); ok {
		return rel
	}
	return importPath
}

// testID names a test across a module's packages: the test's name in
// the root package, "z.TestX" in package z.
func testID(pkg, test string) string {
	if pkg == "." {
		return test
	}
	return pkg + "." + test
}

// parseTestJSON reads the output of go test -json on packages of module
// modPath. killed says that the harness stopped the run before it ended,
// so that tests and packages left running timed out. Race reports are
// attributed to the test whose output holds them and named through
// paths.
func parseTestJSON(r io.Reader, modPath string, paths pathMap, killed bool) (*testRun, error) {
	tr := &testRun{Packages: map[string]*pkgResult{}, Tests: map[string]*testResult{}}
	type stream struct {
		pkg, name, id string
		races         raceScanner
		excerpt       []string
		running       bool // seen "run" since the last verdict
	}
	streams := map[string]*stream{} // by test ID; a package's own output under "pkg\x00"
	var order []*stream
	get := func(pkg, test string) *stream {
		key := testID(pkg, test)
		if test == "" {
			key = pkg + "\x00"
		}
		s := streams[key]
		if s == nil {
			s = &stream{pkg: pkg, name: test, id: testID(pkg, test)}
			if test == "" {
				s.id = ""
			}
			streams[key] = s
			order = append(order, s)
		}
		return s
	}
	pkgOf := func(pkg string) *pkgResult {
		p := tr.Packages[pkg]
		if p == nil {
			p = &pkgResult{Status: statusNoResult}
			tr.Packages[pkg] = p
		}
		return p
	}
	timedOut := map[string]bool{}  // packages whose binary said "panic: test timed out"
	build := map[string][]string{} // build output by ImportPath

	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev testEvent
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			if s := strings.TrimSpace(string(line)); s != "" {
				tr.Setup = append(tr.Setup, s)
			}
			continue
		}
		switch ev.Action {
		case "build-output":
			build[ev.ImportPath] = append(build[ev.ImportPath], strings.TrimRight(ev.Output, "\n"))
			continue
		case "build-fail":
			continue
		}
		if ev.Package == "" {
			continue
		}
		pkg := pkgID(ev.Package, modPath)
		p := pkgOf(pkg)
		s := get(pkg, ev.Test)
		switch ev.Action {
		case "start":
		case "run":
			s.running = true
		case "output":
			if lines := s.races.line(ev.Output); lines != nil {
				tr.Races = append(tr.Races, paths.reduceReport(s.id, lines))
			}
			if strings.HasPrefix(ev.Output, "panic: test timed out after") {
				timedOut[pkg] = true
			}
			// testing's race line comes last; keep it however long the
			// output before it, since it tells a bystander.
			if !s.races.open && keepInExcerpt(ev.Output) && (len(s.excerpt) < excerptLines || strings.Contains(ev.Output, raceDetectedLine)) {
				s.excerpt = append(s.excerpt, truncate(strings.TrimRight(ev.Output, "\n"), 200))
			}
		case statusPass, statusFail, statusSkip:
			if ev.Test == "" {
				p.Status, p.Elapsed = ev.Action, ev.Elapsed
				if ev.FailedBuild != "" {
					p.Status = statusBuild
					p.Excerpt = firstN(build[ev.FailedBuild], 2*excerptLines)
				} else if ev.Action == statusFail {
					p.Excerpt = s.excerpt
				}
				continue
			}
			s.running = false
			t := tr.test(s.pkg, s.name, s.id)
			t.Status, t.Elapsed = ev.Action, ev.Elapsed
			t.Runs++
			if ev.Action == statusFail {
				t.Fails++
				if t.Excerpt == nil {
					t.Excerpt = s.excerpt
				}
			}
			s.excerpt = nil
		}
	}
	if err := sc.Err(); err != nil {
		return tr, fmt.Errorf("reading go test -json output: %w", err)
	}

	for _, s := range order {
		if lines := s.races.flush(); lines != nil {
			tr.Races = append(tr.Races, paths.reduceReport(s.id, lines))
		}
		if s.id == "" || !s.running {
			continue
		}
		// A test left running: its binary ended, or was ended, first.
		st := statusNoResult
		if timedOut[s.pkg] || killed {
			st = statusTimeout
		}
		t := tr.test(s.pkg, s.name, s.id)
		t.Status, t.Excerpt = st, s.excerpt
		t.Runs++
		t.Fails++
	}
	for id, p := range tr.Packages {
		switch {
		case p.Status == statusNoResult && killed, p.Status == statusFail && timedOut[id]:
			p.Status = statusTimeout
		}
	}
	return tr, nil
}

// test returns the result of test name of package pkg, whose ID is id,
// adding it if it is new.
func (tr *testRun) test(pkg, name, id string) *testResult {
	t := tr.Tests[id]
	if t == nil {
		t = &testResult{Pkg: pkg, Name: name}
		tr.Tests[id] = t
	}
	return t
}

// keepInExcerpt reports whether a line of a test's output says something
// about why it failed, rather than being the test framework's framing.
func keepInExcerpt(out string) bool {
	t := strings.TrimSpace(out)
	switch {
	case t == "", t == "PASS", t == "FAIL",
		strings.HasPrefix(t, "=== "),
		strings.HasPrefix(t, "--- PASS"), strings.HasPrefix(t, "--- FAIL"), strings.HasPrefix(t, "--- SKIP"),
		strings.HasPrefix(t, "ok  \t"), strings.HasPrefix(t, "FAIL\t"),
		t == raceBlockStart, strings.HasPrefix(t, raceBlockEnd):
		return false
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func firstN(lines []string, n int) []string {
	if len(lines) > n {
		return lines[:n]
	}
	return lines
}
