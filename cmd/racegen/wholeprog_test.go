package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The whole-program corpus, testdata/wholeprog, is a module of tests whose
// races or whose synchronization live inside the standard library, inside
// golang.org/x/sync, or inside a local module standing for a third-party
// library (see testdata/README.md). Its tests are scored by name, as Go's
// race suite is: a TestRace* test must report a race and a TestNoRace*
// test must not. Each report of a TestRace* test must also show, as
// file:line in one of its stacks, every line of the test that ends in the
// comment "// race".
//
// TestWholeProgram runs the corpus under racegen test at rate 1 and fails
// on every disagreement. With RACEGEN_WHOLEPROG=race (make eval-wholeprog)
// it also runs go test -race on the corpus, scores it the same way, and
// prints both side by side.

// A corpusTest is one TestRace* or TestNoRace* function of the corpus.
type corpusTest struct {
	name  string
	race  bool     // named TestRace*
	marks []string // "file.go:line" of each line ending in "// race"
}

// A testRun is what one test printed in a go test -v run.
type testRun struct {
	ran     bool
	failed  bool     // --- FAIL
	flagged bool     // "race detected during execution of test"
	reports []string // each race report, from WARNING: DATA RACE to its closing line
	output  string   // every line printed under the test's headings
}

// reported reports whether the run says the test raced: a report under
// its heading, or the testing package's verdict on it.
func (r testRun) reported() bool { return len(r.reports) > 0 || r.flagged }

func TestWholeProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole-program corpus, with its standard library and dependencies")
	}
	dir := filepath.Join(moduleRoot(t), "testdata", "wholeprog")
	tests, mistakes, err := loadCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mistakes {
		t.Errorf("corpus: %s", m)
	}

	// Reports go to stdout, the stream go test -v writes its "=== RUN"
	// lines to, so that each lands under the heading of its test (see
	// TestRaceSuite).
	start := time.Now()
	var out strings.Builder
	env := []string{"RACEGEN_OPTIONS=log_path=stdout"}
	code := runWithEnv(t, env, []string{"-o", testOut, "test", "-C", dir, "-v", "-count=1", "-timeout=5m", "./..."}, &out)
	t.Logf("racegen test: exit %d after %v", code, time.Since(start).Round(time.Millisecond))
	got, outside := parseTestRuns(out.String())
	if len(got) == 0 {
		t.Fatalf("no test ran:\n%s", tail(out.String(), 6000))
	}
	if strings.Contains(out.String(), "panic: test timed out") {
		t.Errorf("the corpus timed out:\n%s", tail(out.String(), 6000))
	}
	problems := judgeCorpus(tests, got)
	if len(outside) > 0 {
		problems = append(problems, fmt.Sprintf("%d race reports outside any test; the first:\n%s", len(outside), outside[0]))
	}

	var ref map[string]testRun
	if os.Getenv("RACEGEN_WHOLEPROG") == "race" {
		ref = raceCorpusRun(t, dir, tests)
	}
	t.Logf("whole-program corpus, test by test:\n%s", corpusTable(tests, got, ref))
	for _, p := range problems {
		t.Errorf("racegen: %s", p)
	}
}

// raceCorpusRun runs the corpus under go test -race, reports where -race
// disagrees with the tests' names and marks (the corpus, not racegen, is
// then at fault), and returns its runs.
func raceCorpusRun(t *testing.T, dir string, tests []corpusTest) map[string]testRun {
	t.Helper()
	start := time.Now()
	cmd := exec.Command("go", "test", "-race", "-v", "-count=1", "-timeout=5m", "./...")
	cmd.Dir = dir
	// go test gives the test binary one stream for its stdout and stderr,
	// so -race's reports (on stderr) stay under their tests' headings.
	cmd.Env = append(os.Environ(), "GORACE=halt_on_error=0")
	b, _ := cmd.CombinedOutput()
	t.Logf("go test -race: %v", time.Since(start).Round(time.Millisecond))
	ref, outside := parseTestRuns(string(b))
	if len(ref) == 0 {
		t.Fatalf("go test -race ran no test:\n%s", tail(string(b), 6000))
	}
	for _, p := range judgeCorpus(tests, ref) {
		t.Errorf("go test -race disagrees with the corpus: %s", p)
	}
	if len(outside) > 0 {
		t.Errorf("go test -race: %d race reports outside any test; the first:\n%s", len(outside), outside[0])
	}
	return ref
}

// loadCorpus parses the corpus's test files and returns its TestRace* and
// TestNoRace* functions in file order, with the lines each marks, and the
// mistakes of the corpus: a mark outside a TestRace* function, or a
// TestRace* function without one.
func loadCorpus(dir string) ([]corpusTest, []string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, nil, err
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no test files in %s", dir)
	}
	var (
		tests    []corpusTest
		mistakes []string
	)
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		var marks []token.Pos
		for _, g := range f.Comments {
			for _, c := range g.List {
				if c.Text == "// race" {
					marks = append(marks, c.Pos())
				}
			}
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil {
				continue
			}
			tc := corpusTest{name: fn.Name.Name, race: strings.HasPrefix(fn.Name.Name, "TestRace")}
			if !tc.race && !strings.HasPrefix(tc.name, "TestNoRace") {
				continue
			}
			marks = slices.DeleteFunc(marks, func(p token.Pos) bool {
				if p < fn.Pos() || p >= fn.End() {
					return false
				}
				pos := fset.Position(p)
				tc.marks = append(tc.marks, fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line))
				return true
			})
			switch {
			case tc.race && len(tc.marks) == 0:
				mistakes = append(mistakes, tc.name+" marks no line // race")
			case !tc.race && len(tc.marks) > 0:
				mistakes = append(mistakes, fmt.Sprintf("%s is race-free but marks %s", tc.name, strings.Join(tc.marks, ", ")))
			}
			tests = append(tests, tc)
		}
		for _, p := range marks {
			mistakes = append(mistakes, fmt.Sprintf("%s is marked // race outside a TestRace* function", fset.Position(p)))
		}
	}
	return tests, mistakes, nil
}

// parseTestRuns splits go test -v output into what each top-level test
// printed (a subtest's lines belong to its parent), and returns besides
// the race reports printed outside any test.
func parseTestRuns(out string) (map[string]testRun, []string) {
	runs := map[string]testRun{}
	lines := map[string][]string{}
	var order []string
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		for _, prefix := range []string{"=== RUN   ", "=== CONT  ", "=== PAUSE ", "=== NAME  "} {
			if name, ok := strings.CutPrefix(l, prefix); ok {
				cur, _, _ = strings.Cut(name, "/")
				if _, seen := lines[cur]; !seen {
					order = append(order, cur)
				}
				break
			}
		}
		lines[cur] = append(lines[cur], l)
	}
	for _, name := range order {
		ls := lines[name]
		r := testRun{ran: true, output: strings.Join(ls, "\n"), reports: raceReports(ls)}
		for _, l := range ls {
			r.failed = r.failed || strings.HasPrefix(strings.TrimSpace(l), "--- FAIL: "+name+" ")
			r.flagged = r.flagged || strings.Contains(l, "race detected during execution of test")
		}
		runs[name] = r
	}
	return runs, raceReports(lines[""])
}

// raceReports returns each race report in lines.
func raceReports(lines []string) []string {
	var reps []string
	for i := 0; i < len(lines); i++ {
		if lines[i] != "WARNING: DATA RACE" {
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j] != "==================" {
			j++
		}
		reps = append(reps, strings.Join(lines[i:min(j+1, len(lines))], "\n"))
		i = j
	}
	return reps
}

// reportFrames returns the "file.go:line" of every frame of a report, in
// any of its stacks.
func reportFrames(report string) []string {
	var frames []string
	for _, l := range strings.Split(report, "\n") {
		if m := frameRE.FindStringSubmatch(l); m != nil {
			frames = append(frames, filepath.Base(m[1])+":"+m[2])
		}
	}
	return frames
}

// missingMarks returns the marked lines of tc that report does not show.
// racegen names the previous access of a report by its site alone,
// without the calls that led to it (docs/usage.md): where that site is
// outside the test's files (in the standard library or the dependency),
// the marked line that called it cannot be shown, and the report is
// judged on the lines its current access shows. prevSite says whether
// that allowance was made.
func missingMarks(tc corpusTest, report string) (missing []string, prevSite bool) {
	frames := reportFrames(report)
	for _, m := range tc.marks {
		if !slices.Contains(frames, m) {
			missing = append(missing, m)
		}
	}
	if len(missing) == 0 || len(missing) == len(tc.marks) {
		return missing, false
	}
	prev := previousFrames(report)
	if len(prev) == 1 && !strings.HasSuffix(prev[0], "_test.go") {
		return nil, true
	}
	return missing, false
}

// previousFrames returns the files of the frames of a report's previous
// access.
func previousFrames(report string) []string {
	var files []string
	in := false
	for _, l := range strings.Split(report, "\n") {
		switch {
		case strings.HasPrefix(l, "Previous "):
			in = true
		case in && strings.TrimSpace(l) == "":
			return files
		case in:
			if m := frameRE.FindStringSubmatch(l); m != nil {
				files = append(files, m[1])
			}
		}
	}
	return files
}

// judgeCorpus compares the runs with the tests' names and marks and
// returns one line (and the evidence) per disagreement.
func judgeCorpus(tests []corpusTest, runs map[string]testRun) []string {
	var problems []string
	for _, tc := range tests {
		r := runs[tc.name]
		switch {
		case !r.ran:
			problems = append(problems, tc.name+": did not run")
		case tc.race && !r.reported():
			problems = append(problems, tc.name+": race not reported")
		case tc.race && len(r.reports) == 0:
			problems = append(problems, fmt.Sprintf("%s: failed for a race, but no report is under its heading:\n%s", tc.name, tail(r.output, 3000)))
		case tc.race:
			for _, rep := range r.reports {
				if missing, _ := missingMarks(tc, rep); len(missing) > 0 {
					problems = append(problems, fmt.Sprintf("%s: a report does not show %s (marked // race):\n%s", tc.name, strings.Join(missing, ", "), rep))
					break
				}
			}
		case r.reported():
			problems = append(problems, fmt.Sprintf("%s: race-free, but reported:\n%s", tc.name, tail(r.output, 6000)))
		case r.failed:
			problems = append(problems, fmt.Sprintf("%s: failed:\n%s", tc.name, tail(r.output, 3000)))
		}
	}
	return problems
}

// verdictCell describes a run of tc for the table: whether it reported,
// and whether its reports show the marked lines.
func verdictCell(tc corpusTest, r testRun) string {
	switch {
	case !r.ran:
		return "not run"
	case !r.reported():
		if r.failed {
			return "failed"
		}
		return "-"
	case !tc.race:
		return "RACE"
	}
	prevSite := false
	for _, rep := range r.reports {
		missing, ps := missingMarks(tc, rep)
		if len(missing) > 0 {
			return "race, lines?"
		}
		prevSite = prevSite || ps
	}
	if prevSite {
		return "race, prev site"
	}
	if len(r.reports) == 0 {
		return "race, no report"
	}
	return "race"
}

// corpusTable lays out each test's expected verdict and racegen's, with
// -race's beside them when ref is not nil, and the totals: races found,
// race-free tests reported, and reports that miss a marked line.
func corpusTable(tests []corpusTest, got, ref map[string]testRun) string {
	type tally struct{ found, noRaceReported, linesMissed, prevSite int }
	count := func(runs map[string]testRun) tally {
		var tl tally
		for _, tc := range tests {
			r := runs[tc.name]
			switch cell := verdictCell(tc, r); {
			case tc.race && strings.HasPrefix(cell, "race"):
				tl.found++
				switch cell {
				case "race, prev site":
					tl.prevSite++
				case "race":
				default:
					tl.linesMissed++
				}
			case !tc.race && r.reported():
				tl.noRaceReported++
			}
		}
		return tl
	}
	races := 0
	for _, tc := range tests {
		if tc.race {
			races++
		}
	}
	var b strings.Builder
	w := 4
	for _, tc := range tests {
		w = max(w, len(tc.name))
	}
	row := func(cells ...string) {
		fmt.Fprintf(&b, "%-*s %-6s %-16s", w, cells[0], cells[1], cells[2])
		if ref != nil {
			fmt.Fprintf(&b, " %-16s", cells[3])
		}
		b.WriteString("\n")
	}
	row("test", "want", "racegen", "go test -race")
	for _, tc := range tests {
		want := "-"
		if tc.race {
			want = "race"
		}
		row(tc.name, want, verdictCell(tc, got[tc.name]), verdictCell(tc, ref[tc.name]))
	}
	total := func(tl tally) string {
		return fmt.Sprintf("%d/%d races found (%d without every // race line, %d naming the previous access by its site); %d/%d race-free tests reported", tl.found, races, tl.linesMissed, tl.prevSite, tl.noRaceReported, len(tests)-races)
	}
	fmt.Fprintf(&b, "racegen:       %s\n", total(count(got)))
	if ref != nil {
		fmt.Fprintf(&b, "go test -race: %s\n", total(count(ref)))
	}
	b.WriteString("(race, lines?: a report does not show every line marked // race; race, prev site: the previous access, in the standard library or the dependency, is named by its site only; RACE: a race-free test reported)\n")
	return b.String()
}

// TestWholeProgramScoring checks how TestWholeProgram reads a corpus and
// scores a run, on a small corpus and a go test -v output written for it.
func TestWholeProgramScoring(t *testing.T) {
	dir := t.TempDir()
	src := `package w

func TestRaceA(t *testing.T) {
	go func() {
		x = 1 // race
	}()
	x = 2 // race
}

func TestRaceB(t *testing.T) {
	x = 3 // race
}

func TestNoRaceC(t *testing.T) {
	t.Run("sub", func(t *testing.T) {})
}

func TestRaceD(t *testing.T) {
	x = 4 // race
}

func TestRaceE(t *testing.T) {
	x = 5 // race
}

func helper() {
	x = 6 // race
}

func TestRaceUnmarked(t *testing.T) {}
`
	if err := os.WriteFile(filepath.Join(dir, "a_test.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	tests, mistakes, err := loadCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tc := range tests {
		names = append(names, fmt.Sprintf("%s%v", tc.name, tc.marks))
	}
	wantNames := []string{"TestRaceA[a_test.go:5 a_test.go:7]", "TestRaceB[a_test.go:11]", "TestNoRaceC[]",
		"TestRaceD[a_test.go:19]", "TestRaceE[a_test.go:23]", "TestRaceUnmarked[]"}
	if !slices.Equal(names, wantNames) {
		t.Errorf("loadCorpus: tests %q, want %q", names, wantNames)
	}
	wantMistakes := []string{"TestRaceUnmarked marks no line // race", filepath.Join(dir, "a_test.go") + ":27:8 is marked // race outside a TestRace* function"}
	if !slices.Equal(mistakes, wantMistakes) {
		t.Errorf("loadCorpus: mistakes %q, want %q", mistakes, wantMistakes)
	}

	report := func(lines ...int) string {
		s := "==================\nWARNING: DATA RACE\nWrite at 0x1 by goroutine 7:\n"
		for _, l := range lines {
			s += fmt.Sprintf("  w.F()\n      /src/w/a_test.go:%d +0x1\n", l)
		}
		return s + "=================="
	}
	out := strings.Join([]string{
		report(99), // before any test: outside
		"=== RUN   TestRaceA",
		report(5, 7),
		"    testing.go:1712: race detected during execution of test",
		"--- FAIL: TestRaceA (0.00s)",
		"=== RUN   TestRaceB",
		report(12),
		"--- FAIL: TestRaceB (0.00s)",
		"=== RUN   TestNoRaceC",
		"=== RUN   TestNoRaceC/sub",
		"=== NAME  TestNoRaceC",
		report(15),
		"--- FAIL: TestNoRaceC (0.00s)",
		"    --- PASS: TestNoRaceC/sub (0.00s)",
		"=== RUN   TestRaceD",
		"--- PASS: TestRaceD (0.00s)",
		"=== RUN   TestRaceUnmarked",
		"    testing.go:1712: race detected during execution of test",
		"--- FAIL: TestRaceUnmarked (0.00s)",
		"FAIL",
	}, "\n")
	runs, outside := parseTestRuns(out)
	if len(outside) != 1 || !strings.Contains(outside[0], "a_test.go:99") {
		t.Errorf("reports outside tests: %q", outside)
	}
	if r := runs["TestNoRaceC"]; !r.failed || len(r.reports) != 1 || runs["TestNoRaceC/sub"].ran {
		t.Errorf("a subtest's lines must count for its parent: %+v", r)
	}
	problems := judgeCorpus(tests, runs)
	var got []string
	for _, p := range problems {
		got = append(got, strings.SplitN(p, "\n", 2)[0])
	}
	want := []string{
		"TestRaceB: a report does not show a_test.go:11 (marked // race):",
		"TestNoRaceC: race-free, but reported:",
		"TestRaceD: race not reported",
		"TestRaceE: did not run",
		"TestRaceUnmarked: failed for a race, but no report is under its heading:",
	}
	if !slices.Equal(got, want) {
		t.Errorf("judgeCorpus:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	table := corpusTable(tests, runs, nil)
	for _, w := range []string{"TestRaceB", "race, lines?", "TestNoRaceC", "RACE", "racegen:       3/5 races found (2 without every // race line, 0 naming the previous access by its site); 1/1 race-free tests reported"} {
		if !strings.Contains(table, w) {
			t.Errorf("table lacks %q:\n%s", w, table)
		}
	}
}

// TestMissingMarks checks the allowance for a previous access named by
// its site alone: only when that site is outside the test's files and
// the report shows the current access's marked line.
func TestMissingMarks(t *testing.T) {
	tc := corpusTest{name: "TestRaceX", race: true, marks: []string{"x_test.go:10", "x_test.go:12"}}
	report := func(prev string) string {
		return "WARNING: DATA RACE\nWrite at 0x1 by goroutine 2:\n  bytes.(*Buffer).Write()\n      /go/src/bytes/buffer.go:20 +0x1\n  p.TestRaceX.func1()\n      /m/x_test.go:10 +0x2\n\nPrevious write at 0x1 by goroutine 1:\n" + prev + "\n"
	}
	for _, tt := range []struct {
		name     string
		report   string
		missing  int
		prevSite bool
	}{
		{"both shown", report("  p.TestRaceX()\n      /m/x_test.go:12\n"), 0, false},
		{"previous in std, by site", report("  bytes.(*Buffer).Write()\n      /go/src/bytes/buffer.go:20\n"), 0, true},
		{"previous in the test file, wrong line", report("  p.TestRaceX()\n      /m/x_test.go:13\n"), 1, false},
		{"previous with callers, line missing", report("  bytes.(*Buffer).Write()\n      /go/src/bytes/buffer.go:20\n  p.f()\n      /m/f.go:3\n"), 1, false},
	} {
		missing, prevSite := missingMarks(tc, tt.report)
		if len(missing) != tt.missing || prevSite != tt.prevSite {
			t.Errorf("%s: missing %v, prevSite %v; want %d missing, prevSite %v", tt.name, missing, prevSite, tt.missing, tt.prevSite)
		}
	}
}
