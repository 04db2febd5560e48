package main

import (
	"maps"
	"slices"
	"testing"
)

// goldenModule returns the results of the golden module in forms go,
// race and full, parsed from testdata/golden.
func goldenModule(t *testing.T) *moduleResult {
	t.Helper()
	m := &moduleResult{
		Module: module{Path: "example.com/golden", Version: "v1.0.0", Why: "the harness's golden inputs"},
		GoLine: "1.26",
		Forms:  map[string]*formResult{},
	}
	for _, name := range []string{formGo, formRace, formFull} {
		m.Forms[name] = &formResult{
			Build:  invocation{Wall: 1},
			Run:    invocation{Wall: map[string]float64{formGo: 2, formRace: 6, formFull: 9}[name], RSS: 100 << 20},
			Result: parseFile(t, "golden/"+name+".json", "example.com/golden", goldenPaths, false),
			Binaries: []binaryUsage{
				{Dir: ".", RSS: map[string]int64{formGo: 5 << 20, formRace: 30 << 20, formFull: 20 << 20}[name]},
			},
		}
	}
	return m
}

// brief lists disagreements as "form name base→got".
func brief(ds []disagreement) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Form+" "+d.Name()+" "+d.Base+"→"+d.Got)
	}
	return out
}

func TestDisagreements(t *testing.T) {
	m := goldenModule(t)
	setup := parseFile(t, "setup.json", "example.com/golden", goldenPaths, false)
	notBuilt := &testRun{
		Packages: map[string]*pkgResult{
			".":   {Status: statusBuild, Excerpt: []string{"# example.com/golden", "counter.go:3: syntax error"}},
			"sub": {Status: statusPass},
		},
		Tests: map[string]*testResult{"sub.TestEnv": {Pkg: "sub", Name: "TestEnv", Status: statusPass}},
	}
	// goleak's way: every test passes, and the package fails in TestMain.
	leak := parseFile(t, "golden/go.json", "example.com/golden", goldenPaths, false)
	leak.Packages["sub"] = &pkgResult{Status: statusFail, Excerpt: []string{"goleak: Errors on successful test run: found unexpected goroutines:"}}
	// A subtest that fails fails its parent; only the subtest is listed.
	sub := parseFile(t, "golden/go.json", "example.com/golden", goldenPaths, false)
	sub.Tests["TestOK"].Status = statusFail
	sub.Tests["TestOK/b"].Status = statusFail
	sub.Tests["TestSkipped"].Status = statusPass // skipped under go test: a disagreement too
	// A package that timed out is one disagreement, naming what ran.
	slow := parseFile(t, "golden/go.json", "example.com/golden", goldenPaths, false)
	slow.Packages["sub"].Status = statusTimeout
	slow.Tests["sub.TestEnv"].Status = statusTimeout

	for _, tt := range []struct {
		name string
		run  *testRun
		want []string
	}{
		{formRace, m.Forms[formRace].Result, []string{
			"race TestMapRace pass→fail", "race TestRace pass→fail", "race sub.TestEnv pass→fail"}},
		{formFull, m.Forms[formFull].Result, []string{
			"full TestMapRace pass→fail", "full TestRace pass→fail", "full TestSubtestOrder pass→fail"}},
		{"setup", setup, []string{"setup all packages ran→nothing ran"}},
		{"notbuilt", notBuilt, []string{"notbuilt package . pass→build failed"}},
		{"leak", leak, []string{"leak package sub pass→fail"}},
		{"sub", sub, []string{"sub TestOK/b pass→fail", "sub TestSkipped skip→pass"}},
		{"slow", slow, []string{"slow package sub pass→timeout"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m.Forms[tt.name] = &formResult{Result: tt.run}
			got := brief(disagreements(m, tt.name))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	if ds := disagreements(m, "slow"); len(ds) != 1 || !slices.Equal(ds[0].Excerpt, []string{"still running: sub.TestEnv"}) {
		t.Errorf("timed-out package: %+v, want the test still running named", ds)
	}
}

func TestRaceRows(t *testing.T) {
	m := goldenModule(t)
	type row struct {
		key, where string
		tests      []string
		count      map[string]int
	}
	var got []row
	for _, r := range raceRows(m, []string{formGo, formRace, formFull}) {
		got = append(got, row{r.Key, r.Where([]string{formFull}), r.Tests, r.Count})
	}
	want := []row{
		{"counter_test.go:31 ↔ counter_test.go:32", "racegen only", []string{"TestSubtestOrder"}, map[string]int{formFull: 1}},
		{"counter.go:10 ↔ counter.go:10", "all", []string{"TestMapRace"}, map[string]int{formRace: 1, formFull: 1}},
		{"counter.go:7 ↔ counter.go:7", "all", []string{"TestRace"}, map[string]int{formRace: 1, formFull: 1}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d rows %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.key != w.key || g.where != w.where || !slices.Equal(g.tests, w.tests) || !maps.Equal(g.count, w.count) {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestRerunCandidates(t *testing.T) {
	m := goldenModule(t)
	got := rerunCandidates(m, []string{formGo, formRace, formFull})
	want := map[string][]string{".": {"TestMapRace", "TestRace", "TestSubtestOrder"}, "sub": {"TestEnv"}}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWhere(t *testing.T) {
	rg := []string{formFull, formToolexec, formSampled}
	for _, tt := range []struct {
		count map[string]int
		want  string
	}{
		{map[string]int{formRace: 2, formFull: 1, formToolexec: 1, formSampled: 1}, "all"},
		{map[string]int{formRace: 2}, "-race only"},
		{map[string]int{formRace: 1, formFull: 1}, "-race and some racegen forms"},
		{map[string]int{formToolexec: 1}, "racegen only"},
	} {
		if got := (raceRow{Count: tt.count}).Where(rg); got != tt.want {
			t.Errorf("Where(%v) = %q, want %q", tt.count, got, tt.want)
		}
	}
}

func TestExplanation(t *testing.T) {
	defer func(saved []explained) { explanations = saved }(explanations)
	explanations = []explained{
		{Module: "example.com/a", Subject: "TestX", Match: "x.go:1 ↔ x.go:2", Text: "the race in TestX"},
		{Subject: "all packages", Match: "go: updates to go.mod needed", Text: "issue 18 item 1"},
		{Module: "example.com/b", Subject: "TestAlloc*", Forms: []string{formRace}, Text: "excluded under -race"},
		{Module: "example.com/c", Forms: []string{formFull, formSampled}, Text: "built with the race tag"},
		{Module: "example.com/a", Text: "anything else in a"},
	}
	for _, tt := range []struct{ module, subject, form, text, want string }{
		{"example.com/a", "TestX", formFull, "race x.go:1 ↔ x.go:2", "the race in TestX"},
		{"example.com/a", "TestX", "", "x.go:1 ↔ x.go:2", "the race in TestX"},
		{"example.com/a", "TestX", formFull, "race x.go:1 ↔ x.go:3", "anything else in a"},
		{"example.com/b", "all packages", formSampled, "go: updates to go.mod needed; to update it:", "issue 18 item 1"},
		{"example.com/b", "all packages", formFull, "racegen: cannot load", ""},
		{"example.com/b", "TestX", formFull, "race x.go:1 ↔ x.go:2", ""},
		{"example.com/b", "TestAllocationFS", formRace, "", "excluded under -race"},
		{"example.com/b", "TestAllocationFS", formFull, "", ""},
		{"example.com/b", "TestAlloc", formRace, "", "excluded under -race"},
		{"example.com/b", "TestAllo", formRace, "", ""},
		{"example.com/c", "TestX", formFull, "", "built with the race tag"},
		{"example.com/c", "TestX", formSampled, "", "built with the race tag"},
		{"example.com/c", "TestX", formToolexec, "", ""},
	} {
		if got := explanation(tt.module, tt.subject, tt.form, tt.text); got != tt.want {
			t.Errorf("explanation(%s, %s, %s, %q) = %q, want %q", tt.module, tt.subject, tt.form, tt.text, got, tt.want)
		}
	}
}

func TestPassedDespite(t *testing.T) {
	m := goldenModule(t)
	forms := []string{formRace, formFull}
	if got := passedDespite(m, "counter.go:7 ↔ counter.go:7", forms); len(got) != 0 {
		t.Errorf("TestRace failed in both forms; got %q", got)
	}
	// racegen's report in a t.Cleanup fails nothing (issue 18 item 5).
	m.Forms[formFull].Result.Tests["TestRace"].Status = statusPass
	want := []string{"TestRace in racegen test"}
	if got := passedDespite(m, "counter.go:7 ↔ counter.go:7", forms); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestBystander(t *testing.T) {
	m := goldenModule(t)
	full := m.Forms[formFull].Result
	for i, r := range full.Races {
		if r.Test == "TestMapRace" {
			full.Races[i].Test = "TestMapRace/sub"
		}
	}
	race := "    counter_test.go:40: race detected during execution of test"
	for _, tt := range []struct {
		d    disagreement
		want bool
	}{
		// Failed only with testing's line, and no report of its own.
		{disagreement{Form: formFull, Test: "TestOK", Base: statusPass, Got: statusFail, Excerpt: []string{race}}, true},
		// Its own output holds the report.
		{disagreement{Form: formFull, Test: "TestRace", Base: statusPass, Got: statusFail, Excerpt: []string{race}}, false},
		{disagreement{Form: formFull, Test: "TestSubtestOrder", Base: statusPass, Got: statusFail, Excerpt: []string{race}}, false},
		// A subtest's output holds one (see below).
		{disagreement{Form: formFull, Test: "TestMapRace", Base: statusPass, Got: statusFail, Excerpt: []string{race}}, false},
		// Other lines too: t.Log's look like t.Error's.
		{disagreement{Form: formFull, Test: "TestOK", Base: statusPass, Got: statusFail, Excerpt: []string{"    x_test.go:3: serving /a", race}}, true},
		// No race line: it failed for its own reason.
		{disagreement{Form: formFull, Test: "TestOK", Base: statusPass, Got: statusFail, Excerpt: []string{"    x_test.go:3: want 1"}}, false},
		{disagreement{Form: formFull, Test: "TestOK", Base: statusPass, Got: statusTimeout, Excerpt: []string{race}}, false},
	} {
		if got := bystander(m, tt.d); got != tt.want {
			t.Errorf("bystander(%s, %q) = %v, want %v", tt.d.Test, tt.d.Excerpt, got, tt.want)
		}
	}
}
