package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// writeReport writes docs/modules.md from rs.
func writeReport(w io.Writer, rs *results) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p("# racegen on real modules' test suites\n\n")
	p("Written by `make eval-modules` (bench/modules); do not edit by hand. Explanations of disagreements live in bench/modules/explain.go; `go run ./bench/modules -report WORK/results.json` writes this file again from a run's saved results.\n\n")
	p("Each module of the pinned list (bench/modules/list.go) is copied from the module cache into a work directory (the cache is never written to; the copy's go.mod is never changed), its dependencies are downloaded, and its test suite runs in each form:\n\n")
	for _, name := range rs.Forms {
		f, _ := formNamed(name)
		p("- **%s**: `%s`\n", f.Label, strings.Join(f.command("racegen", []string{"..."}), " "))
	}
	p("\neach with `-json -count=1 -vet=off -timeout=%s` and the environment `%s`, one form after the other. ", fmtDuration(rs.Timeout), strings.Join(rs.Env, " "))
	p("Each form first runs with `-run='^$'`, which builds the test binaries (the *build* time); then the timed run relinks them and runs the tests. ")
	p("A run still going %s after its `-timeout` is killed. ", fmtDuration(defaultGrace.Seconds()))
	if rs.NetNS {
		p("Tests run in a network namespace of their own with only a loopback interface, so a test that names a host elsewhere fails to reach it in every form alike. ")
	}
	p("Test binaries run under `go test -exec` with a wrapper that measures each binary's peak RSS.\n\n")
	p("A *disagreement* is a test (or a whole package) that passes under go test and does not pass in another form, or the reverse. Every test that disagrees, or fails under go test, is rerun %d times under go test to tell flakes from findings. ", rs.Reruns)
	p("A *race* is named by the pair of its two accesses' top frames outside the standard library, as `file:line`, relative to the module root.\n\n")
	p("- command: `%s`\n", rs.Command)
	p("- racegen: %s", rs.Racegen)
	if rs.RacegenSources != "" {
		p(", whose sources (cmd, runtime, instrument, analysis) last changed in commit %s", rs.RacegenSources)
	}
	p("\n")
	p("- date: %s; total wall time %s\n", rs.Date, fmtDuration(rs.Wall))
	p("- machine: %s\n", rs.Machine)
	p("- one run of each form per module, so wall times carry the noise of a shared machine")
	if len(rs.Load) == 2 {
		p(" (load averages over 1, 5 and 15 minutes: %s at the start, %s at the end)", rs.Load[0], rs.Load[1])
	}
	p("\n")
	p("- Go: %s\n\n", rs.GoVersion)

	writeSummary(&b, rs)
	for _, m := range rs.Modules {
		writeModule(&b, rs, m)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// otherForms returns rs's forms other than go test.
func (rs *results) otherForms() []string {
	return slices.DeleteFunc(slices.Clone(rs.Forms), func(n string) bool { return n == formGo })
}

// racegenForms returns rs's racegen forms.
func (rs *results) racegenForms() []string {
	return slices.DeleteFunc(slices.Clone(rs.Forms), func(n string) bool {
		f, _ := formNamed(n)
		return !f.Racegen
	})
}

func labels(names []string) string {
	var ls []string
	for _, n := range names {
		f, _ := formNamed(n)
		ls = append(ls, f.Label)
	}
	return strings.Join(ls, " · ")
}

// writeSummary writes the table with a row per module.
func writeSummary(b *strings.Builder, rs *results) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	other, rg := rs.otherForms(), rs.racegenForms()
	p("## Summary\n\n")
	p("Each column lists the forms in the order of its heading. *passed* is tests passed / tests with a result; *no build* means no package's tests could be built; *≠ go test* counts disagreements with go test (+N: tests that failed because a race was reported while they ran in parallel); *race pairs* counts distinct location pairs reported; *wall* is the timed run in seconds, without the build step (– when the form did not run every package; ≥ when a package timed out or the run was killed).\n\n")
	p("| module | go | passed: %s | ≠ go test: %s | race pairs: %s | wall s: %s | wall ÷ go test: %s | wall ÷ -race: %s |\n",
		labels(rs.Forms), labels(other), labels(other), labels(rs.Forms), labels(other), labels(rg))
	p("|---|---|---|---|---|---|---|---|\n")
	for _, m := range rs.Modules {
		if m.PrepErr != "" {
			p("| %s | %s | not prepared: %s | | | | | |\n", m.Module.Name(), goLine(m), cell(firstLine(m.PrepErr)))
			continue
		}
		sums := map[string]summary{}
		for _, n := range rs.Forms {
			sums[n] = summarize(m.form(n))
		}
		var passed, diff, pairs, wall, vsGo, vsRace []string
		for _, n := range rs.Forms {
			passed = append(passed, sums[n].PassedCell())
			wall = append(wall, sums[n].WallCell())
		}
		for _, n := range other {
			if sums[n].Ran {
				diff = append(diff, diffCount(m, n))
				pairs = append(pairs, fmt.Sprint(sums[n].Pairs))
			} else {
				diff = append(diff, "–")
				pairs = append(pairs, "–")
			}
			vsGo = append(vsGo, ratioCell(sums[n], sums[formGo]))
		}
		for _, n := range rg {
			vsRace = append(vsRace, ratioCell(sums[n], sums[formRace]))
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", m.Module.Name(), goLine(m),
			strings.Join(passed, " · "), strings.Join(diff, " · "), strings.Join(pairs, " · "),
			strings.Join(wall, " · "), strings.Join(vsGo, " · "), strings.Join(vsRace, " · "))
	}
	p("\n")
}

// diffCount is the summary's count of disagreements of form name with go
// test, with the tests that failed only because a race was reported
// while they ran in parallel as "+N".
func diffCount(m *moduleResult, name string) string {
	direct, by := 0, 0
	for _, d := range disagreements(m, name) {
		if bystander(m, d) {
			by++
		} else {
			direct++
		}
	}
	if by > 0 {
		return fmt.Sprintf("%d (+%d)", direct, by)
	}
	return fmt.Sprint(direct)
}

// goLine is the module's go directive for tables.
func goLine(m *moduleResult) string {
	if m.GoLine == "" {
		if m.PrepErr != "" {
			return "?"
		}
		return "none"
	}
	return m.GoLine
}

// writeModule writes one module's section.
func writeModule(b *strings.Builder, rs *results, m *moduleResult) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	mod := m.Module
	p("## %s\n\n", mod.Name())
	p("`%s@%s` (go line %s): %s.\n\n", mod.Path, mod.Version, goLine(m), mod.Why)
	p("- packages: `%s`", strings.Join(mod.patterns(), " "))
	if mod.Skip != "" {
		p(", skipping `%s`", mod.Skip)
	}
	if mod.Narrowed != "" {
		p(" (%s)", mod.Narrowed)
	}
	p("\n")
	if m.Note != "" {
		p("- the copy: %s\n", m.Note)
	}
	if m.Warning != "" {
		p("- `go mod download` in the copy failed: `%s`\n", firstLine(m.Warning))
	}
	if m.PrepErr != "" {
		p("- **not prepared**: %s\n\n", cell(m.PrepErr))
		return
	}
	p("\n| form | packages | pass | fail | skip | timeout / no result | race reports (pairs) | wall s | build s | peak RSS MiB, test binaries | peak RSS MiB, all | what stopped it |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range rs.Forms {
		f, _ := formNamed(n)
		s := summarize(m.form(n))
		if !s.Ran {
			p("| %s | not run | | | | | | | | | | |\n", f.Label)
			continue
		}
		pk := fmt.Sprint(s.Pkgs)
		if s.NotBuilt > 0 {
			pk += fmt.Sprintf(" (%d not built)", s.NotBuilt)
		}
		races := "–"
		if n != formGo || s.Reports > 0 {
			races = fmt.Sprintf("%d (%d)", s.Reports, s.Pairs)
		}
		p("| %s | %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s |\n", f.Label, pk, s.Pass, s.Fail, s.Skip, s.Other, races,
			fmtSeconds(s.Wall), fmtSeconds(s.BuildWall), fmtMiB(s.BinRSS), fmtMiB(s.RSS), cell(stopped(m.form(n), s)))
	}
	p("\n")

	var ds []disagreement
	bystanders := map[string][]string{} // by form
	for _, n := range rs.otherForms() {
		for _, d := range disagreements(m, n) {
			if bystander(m, d) {
				bystanders[n] = append(bystanders[n], d.Test)
			} else {
				ds = append(ds, d)
			}
		}
	}
	slices.SortStableFunc(ds, func(a, b disagreement) int { return strings.Compare(a.Name(), b.Name()) })
	if len(ds) == 0 && len(bystanders) == 0 {
		p("No disagreement with go test.\n\n")
	} else if len(ds) > 0 {
		p("Disagreements with go test:\n\n")
		p("| test | form | go test | form's verdict | what the form printed | go test reruns | explanation |\n")
		p("|---|---|---|---|---|---|---|\n")
		for _, d := range ds {
			f, _ := formNamed(d.Form)
			printed := strings.Join(racesNote(m, d), "; ") + excerptNote(d)
			p("| %s | %s | %s | %s | %s | %s | %s |\n", cell(d.Name()), f.Label, d.Base, d.Got,
				cell(printed), flakeNote(m, d.Test), cell(explanation(mod.Path, d.Name(), d.Form, printed+" "+strings.Join(d.Excerpt, "\n"))))
		}
		p("\n")
	}
	for _, n := range rs.otherForms() {
		names := bystanders[n]
		if len(names) == 0 {
			continue
		}
		f, _ := formNamed(n)
		p("Under %s, %d more tests that pass under go test failed with `race detected during execution of test` and no race report in their own output: testing fails every test that is running when a race is reported, and these ran in parallel with the reports listed here. (Their output may hold other failures too; the run's log has it whole.)\n\n", f.Label, len(names))
		p("<details><summary>The %d tests</summary>\n\n%s\n\n</details>\n\n", len(names), strings.Join(names, ", "))
	}

	rows := raceRows(m, rs.Forms)
	if len(rows) == 0 {
		p("No race reported.\n\n")
		return
	}
	rg := rs.racegenForms()
	det := append([]string{formRace}, rg...)
	p("Races (reports per form):\n\n")
	p("| access | access | tests | %s | reported by | explanation |\n", strings.ReplaceAll(labels(det), " · ", " | "))
	p("|---|---|---|%s---|---|\n", strings.Repeat("---|", len(det)))
	for _, r := range rows {
		var counts []string
		for _, n := range det {
			counts = append(counts, fmt.Sprint(r.Count[n]))
		}
		var ex []string
		for _, t := range r.Tests {
			if e := explanation(mod.Path, testOrOutside(t), "", r.Key); e != "" && !slices.Contains(ex, e) {
				ex = append(ex, e)
			}
		}
		var tests []string
		for _, t := range r.Tests {
			tests = append(tests, testOrOutside(t))
		}
		where := r.Where(rg)
		if ps := passedDespite(m, r.Key, det); len(ps) > 0 {
			where += "; passed despite the report: " + strings.Join(ps, ", ")
		}
		p("| %s | %s | %s | %s | %s | %s |\n", locCell(r.Locs[0]), locCell(r.Locs[1]), cell(strings.Join(tests, ", ")),
			strings.Join(counts, " | "), cell(where), cell(strings.Join(ex, " ")))
	}
	p("\n")
}

// testOrOutside names a race report's test for the report.
func testOrOutside(id string) string {
	if id == "" {
		return "(outside any test)"
	}
	return id
}

// stopped says what kept a form from testing everything, or "".
func stopped(f *formResult, s summary) string {
	switch {
	case s.Err != "":
		return s.Err
	case f.Build.Killed:
		return "build step killed at the time limit"
	case s.Killed:
		return "killed at the time limit"
	case s.Setup != "":
		return s.Setup
	}
	var why []string
	for _, pkg := range sortedKeys(f.packages()) {
		pr := f.packages()[pkg]
		switch pr.Status {
		case statusBuild:
			why = append(why, fmt.Sprintf("package %s did not build: %s", pkg, buildError(pr.Excerpt)))
		case statusTimeout:
			why = append(why, fmt.Sprintf("package %s timed out", pkg))
		}
	}
	if len(why) > 3 {
		why = append(why[:3], fmt.Sprintf("and %d more", len(why)-3))
	}
	return strings.Join(why, "; ")
}

// buildError picks the line of a build's output that says what failed:
// the first that is not the "# package" heading.
func buildError(lines []string) string {
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") && strings.TrimSpace(l) != "" {
			return l
		}
	}
	return "(no output)"
}

// racesNote describes the races reported in d's test in d's form, and
// whether -race reported the same pairs there.
func racesNote(m *moduleResult, d disagreement) []string {
	f := m.form(d.Form)
	if f == nil || f.Result == nil || d.Test == "" {
		return nil
	}
	racePairs := map[string]bool{}
	if r := m.form(formRace); r != nil && r.Result != nil {
		for _, x := range r.Result.Races {
			racePairs[x.pairKey()] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, x := range f.Result.Races {
		if x.Test != d.Test && !strings.HasPrefix(x.Test, d.Test+"/") || seen[x.pairKey()] {
			continue
		}
		seen[x.pairKey()] = true
		note := "race " + x.pairKey()
		if d.Form != formRace {
			if racePairs[x.pairKey()] {
				note += " (-race reports it too)"
			} else {
				note += " (-race does not report it)"
			}
		}
		out = append(out, note)
	}
	return out
}

// excerptNote is the first lines of d's output that are not about races.
func excerptNote(d disagreement) string {
	var ls []string
	for _, l := range d.Excerpt {
		if strings.Contains(l, raceDetectedLine) {
			continue
		}
		ls = append(ls, strings.TrimSpace(l))
		if len(ls) == 3 {
			break
		}
	}
	if len(ls) == 0 {
		return ""
	}
	return " `" + strings.ReplaceAll(strings.Join(ls, " ⏎ "), "`", "'") + "`"
}

func locCell(l loc) string {
	if l.Func == "" {
		return "`" + l.Pos + "`"
	}
	return "`" + l.Pos + "` " + cell(shortFunc(l.Func))
}

// shortFunc drops the import path from a function name but its last
// element, or its last two when the last is a major version:
// "example.com/m/z.(*T).M" becomes "z.(*T).M", and
// "example.com/m/v2.F" becomes "m/v2.F".
func shortFunc(fn string) string {
	pkg := funcPackage(fn)
	elems := strings.Split(pkg, "/")
	keep := elems[len(elems)-1]
	if len(elems) > 1 && repoBase(pkg) != keep {
		keep = elems[len(elems)-2] + "/" + keep
	}
	return keep + fn[len(pkg):]
}

// cell makes s safe inside a markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.TrimSpace(s)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// fmtDuration prints seconds as minutes, or seconds below a minute.
func fmtDuration(sec float64) string {
	if sec < 60 {
		return fmt.Sprintf("%.0fs", sec)
	}
	return fmt.Sprintf("%.0fm", sec/60)
}
