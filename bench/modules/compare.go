package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// verdictClass sorts statuses into what a comparison cares about: the
// test passed, did not pass (failed, timed out, no result), or did not
// run (skipped, absent).
func verdictClass(status string) string {
	switch status {
	case statusPass:
		return "ok"
	case statusSkip, statusAbsent, "":
		return "none"
	}
	return "bad"
}

// A disagreement is a test, or a whole package, whose verdict in a form
// differs from go test's.
type disagreement struct {
	Form string
	Pkg  string // package ID
	// Test is the test ID; "" for a package-level disagreement, such as
	// a package that did not build, or failed outside its tests. Pkg and
	// Test are both "" when the form tested nothing at all.
	Test string
	Base string // go test's status
	Got  string // the form's status
	// Excerpt is the form's output for it: its failure lines, its build
	// errors.
	Excerpt []string
}

// Name is what the report calls the disagreement's subject, and what
// explanations are keyed by.
func (d disagreement) Name() string {
	if d.Pkg == "" {
		return "all packages"
	}
	if d.Test == "" {
		return "package " + d.Pkg
	}
	return d.Test
}

// disagreements returns every disagreement of form name with go test in
// m, package-level ones first, then tests by ID. A test whose package
// disagrees as a whole (did not build, did not finish) is not listed on
// its own; neither is a test one of whose subtests disagrees the same way.
func disagreements(m *moduleResult, name string) []disagreement {
	base, f := m.form(formGo), m.form(name)
	if base == nil || f == nil {
		return nil
	}
	bp, fp := base.packages(), f.packages()
	if len(fp) == 0 && len(bp) > 0 {
		// Nothing ran: the go command or racegen stopped before testing.
		d := disagreement{Form: name, Base: "ran", Got: "nothing ran"}
		if f.Result != nil {
			d.Excerpt = firstN(f.Result.Setup, 3)
		}
		return []disagreement{d}
	}
	var out []disagreement
	whole := map[string]bool{} // packages that disagree as a whole
	for _, pkg := range sortedKeys(bp, fp) {
		bs, fs := pkgStatus(bp, pkg), pkgStatus(fp, pkg)
		d := disagreement{Form: name, Pkg: pkg, Base: bs, Got: fs}
		if p := fp[pkg]; p != nil {
			d.Excerpt = p.Excerpt
		}
		switch {
		case bs == fs, verdictClass(bs) == "none" && verdictClass(fs) == "none":
			continue
		case fs == statusTimeout:
			whole[pkg] = true
			d.Excerpt = running(f.Result, pkg)
		case fs == statusBuild || fs == statusAbsent || fs == statusNoResult:
			whole[pkg] = true
		case bs == statusPass && fs == statusFail && !anyTestFailed(f.Result, pkg):
			// Failed outside its tests: TestMain, a race after the tests,
			// goleak.VerifyTestMain.
		case bs == statusFail && fs == statusPass && !anyTestFailed(base.Result, pkg):
		default:
			continue // its tests say why
		}
		out = append(out, d)
	}

	bt, ft := base.tests(), f.tests()
	var tests []disagreement
	for _, id := range sortedKeys(bt, ft) {
		t := bt[id]
		if t == nil {
			t = ft[id]
		}
		pkg := t.Pkg
		if whole[pkg] {
			continue
		}
		bs, fs := testStatus(bt, id), testStatus(ft, id)
		if verdictClass(bs) == verdictClass(fs) {
			continue
		}
		d := disagreement{Form: name, Pkg: pkg, Test: id, Base: bs, Got: fs}
		if t := ft[id]; t != nil {
			d.Excerpt = t.Excerpt
		}
		tests = append(tests, d)
	}
	// Drop a test that has a subtest with the same disagreement.
	for _, d := range tests {
		if !slices.ContainsFunc(tests, func(n disagreement) bool {
			return strings.HasPrefix(n.Test, d.Test+"/") && n.Base == d.Base && n.Got == d.Got
		}) {
			out = append(out, d)
		}
	}
	return out
}

// running names the tests of package pkg that were still running when
// the package timed out in r.
func running(r *testRun, pkg string) []string {
	var out []string
	for _, id := range sortedKeys(r.Tests) {
		if t := r.Tests[id]; t.Pkg == pkg && t.Status == statusTimeout {
			out = append(out, "still running: "+id)
		}
	}
	return out
}

// anyTestFailed reports whether a test of package pkg did not pass in r.
func anyTestFailed(r *testRun, pkg string) bool {
	if r == nil {
		return false
	}
	for _, t := range r.Tests {
		if t.Pkg == pkg && verdictClass(t.Status) == "bad" {
			return true
		}
	}
	return false
}

func pkgStatus(ps map[string]*pkgResult, pkg string) string {
	if p := ps[pkg]; p != nil {
		return p.Status
	}
	return statusAbsent
}

func testStatus(ts map[string]*testResult, id string) string {
	if t := ts[id]; t != nil {
		return t.Status
	}
	return statusAbsent
}

// sortedKeys returns the keys of the maps, merged and sorted.
func sortedKeys[V any](ms ...map[string]V) []string {
	set := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			set[k] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// A raceRow is one race, a pair of locations, and the reports of it in
// each form of a module.
type raceRow struct {
	Key   string
	Locs  [2]loc
	Tests []string       // test IDs whose output held a report of it
	Count map[string]int // reports per form
}

// Where classifies the row for the report: which detectors reported it.
func (r raceRow) Where(racegenForms []string) string {
	race := r.Count[formRace] > 0
	n := 0
	for _, f := range racegenForms {
		if r.Count[f] > 0 {
			n++
		}
	}
	switch {
	case race && n == len(racegenForms):
		return "all"
	case race && n == 0:
		return "-race only"
	case !race:
		return "racegen only"
	}
	return "-race and some racegen forms"
}

// raceRows groups the race reports of m's forms by location pair: rows
// racegen reports and -race does not first, then the reverse, then the
// rest, each group by key.
func raceRows(m *moduleResult, formNames []string) []raceRow {
	byKey := map[string]*raceRow{}
	tests := map[string]map[string]bool{}
	for _, name := range formNames {
		f := m.form(name)
		if f == nil || f.Result == nil {
			continue
		}
		for _, r := range f.Result.Races {
			k := r.pairKey()
			row := byKey[k]
			if row == nil {
				row = &raceRow{Key: k, Locs: r.Locs, Count: map[string]int{}}
				byKey[k] = row
				tests[k] = map[string]bool{}
			}
			row.Count[name]++
			tests[k][r.Test] = true
		}
	}
	var rg []string
	for _, name := range formNames {
		if f, ok := formNamed(name); ok && f.Racegen {
			rg = append(rg, name)
		}
	}
	rank := map[string]int{"racegen only": 0, "-race only": 1, "-race and some racegen forms": 2, "all": 3}
	var rows []raceRow
	for k, row := range byKey {
		row.Tests = slices.Sorted(maps.Keys(tests[k]))
		rows = append(rows, *row)
	}
	slices.SortFunc(rows, func(a, b raceRow) int {
		if d := rank[a.Where(rg)] - rank[b.Where(rg)]; d != 0 {
			return d
		}
		return strings.Compare(a.Key, b.Key)
	})
	return rows
}

// raceDetectedLine is what testing prints in a test during which a race
// was reported, under -race and racegen alike.
const raceDetectedLine = "race detected during execution of test"

// bystander reports whether d is a test that passes under go test and
// failed in its form with raceDetectedLine although no race report is in
// its own output: a race was reported while it ran, in parallel, with
// the test whose output holds the report. Its output may hold other lines
// (t.Log's and t.Error's look alike), so a bystander may have failed for
// another reason too; the logs have the whole output.
func bystander(m *moduleResult, d disagreement) bool {
	if d.Test == "" || d.Base != statusPass || d.Got != statusFail {
		return false
	}
	if !slices.ContainsFunc(d.Excerpt, func(l string) bool { return strings.Contains(l, raceDetectedLine) }) {
		return false
	}
	for _, r := range m.form(d.Form).Result.Races {
		if r.Test == d.Test || strings.HasPrefix(r.Test, d.Test+"/") {
			return false
		}
	}
	return true
}

// passedDespite returns the tests that passed in a form although the form
// reported race key in them, as "TestX in racegen test": a race report
// must fail the test it happens in, as with -race. Reports outside any
// test are not counted.
func passedDespite(m *moduleResult, key string, formNames []string) []string {
	var out []string
	for _, name := range formNames {
		f := m.form(name)
		if f == nil || f.Result == nil {
			continue
		}
		seen := map[string]bool{}
		for _, r := range f.Result.Races {
			if r.pairKey() != key || r.Test == "" || seen[r.Test] {
				continue
			}
			seen[r.Test] = true
			if t := f.Result.Tests[r.Test]; t != nil && t.Status == statusPass {
				fm, _ := formNamed(name)
				out = append(out, r.Test+" in "+fm.Label)
			}
		}
	}
	return out
}

// rerunCandidates returns, per package ID, the top-level tests that
// disagree between go test and any other form in m, or that failed under
// go test: those go test runs again to tell flakes from findings.
func rerunCandidates(m *moduleResult, formNames []string) map[string][]string {
	set := map[string]map[string]bool{}
	add := func(t *testResult) {
		top, _, _ := strings.Cut(t.Name, "/")
		pkg := t.Pkg
		if set[pkg] == nil {
			set[pkg] = map[string]bool{}
		}
		set[pkg][top] = true
	}
	for _, name := range formNames {
		if name == formGo {
			continue
		}
		f := m.form(name)
		for _, d := range disagreements(m, name) {
			if t := f.tests()[d.Test]; t != nil {
				add(t)
			} else if t := m.form(formGo).tests()[d.Test]; t != nil {
				add(t)
			}
		}
	}
	for _, t := range m.form(formGo).tests() {
		if verdictClass(t.Status) == "bad" {
			add(t)
		}
	}
	out := map[string][]string{}
	for pkg, names := range set {
		out[pkg] = slices.Sorted(maps.Keys(names))
	}
	return out
}

// flakeNote says what go test's reruns of test id showed, or "".
func flakeNote(m *moduleResult, id string) string {
	r := m.Reruns[id]
	if r == nil || r.Runs == 0 {
		return ""
	}
	if r.Fails == 0 {
		return fmt.Sprintf("go test passed it in %d of %d reruns", r.Runs, r.Runs)
	}
	return fmt.Sprintf("go test failed it in %d of %d reruns", r.Fails, r.Runs)
}
