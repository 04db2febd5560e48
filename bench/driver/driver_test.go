package main

import (
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"
)

// fakeResults has two workloads, a baseline, -race, dynamic mode at two
// rates, one of them rejected, and static mode at one rate.
func fakeResults() *results {
	rs := &results{
		Command: "go run ./bench/driver -reps 3", Reps: 3, Timeout: 90,
		Workloads: []workload{
			{Name: "a", Pkg: "bench/workloads/a", Bench: ".", Benchtime: "1x"},
			{Name: "b", Module: "example.com/b", Version: "v1.0.0", Pkg: ".", Bench: ".", Benchtime: "1x"},
		},
		Configs: configsFor(true, []modeRates{{modeDynamic, []float64{0.01, 1}}, {modeStatic, []float64{0.01}}}, nil, nil, nil, nil, 7),
	}
	runs := func(walls ...float64) []run {
		var rs []run
		for i, w := range walls {
			rs = append(rs, run{Rep: i, Wall: w, RSS: int64(w * 1e6), Status: statusOK})
		}
		return rs
	}
	rs.Cells = []*cell{
		{Workload: "a", Config: "base", Runs: runs(1, 2, 1)},
		{Workload: "a", Config: "race", Runs: runs(4, 8, 5)},
		{Workload: "a", Config: "rate=0.01", Runs: runs(1.1, 2.4, 1.2)},
		{Workload: "a", Config: "rate=1", NA: "rejected by racegen: not built yet"},
		{Workload: "b", Config: "base", Runs: runs(2, 2, 2)},
		{Workload: "b", Config: "race", Runs: runs(18, 20, 22)},
		{Workload: "b", Config: "rate=0.01", Runs: runs(2.2, 2.2, 2.2)},
		{Workload: "b", Config: "rate=1", Runs: []run{{Rep: 0, Wall: 90, RSS: 5e8, Status: statusTimeout}}},
		{Workload: "a", Config: "static-rate=0.01", Runs: runs(1.02, 2.02, 1.02)},
		{Workload: "b", Config: "static-rate=0.01", Runs: runs(2.04, 2.04, 2.04)},
	}
	return rs
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// wantContains reports each of wants that out, the text named what, lacks.
func wantContains(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}

func TestRatiosPairByRepetition(t *testing.T) {
	rs := fakeResults()
	s := ratios(rs.cell("a", "race"), rs.cell("a", "base"), wallOf)
	// Per-repetition ratios 4, 4, 5.
	if s.N != 3 || !near(s.Med, 4) || !near(s.Min, 4) || !near(s.Max, 5) {
		t.Errorf("race ratios = %+v, want median 4 [4, 5] over 3", s)
	}
	if !near(s.Value, 5) {
		t.Errorf("race median wall = %v, want 5", s.Value)
	}
	to := ratios(rs.cell("b", "rate=1"), rs.cell("b", "base"), wallOf)
	if to.N != 1 || !to.AtLeast || !near(to.Med, 45) {
		t.Errorf("timed-out ratios = %+v, want one lower bound of 45", to)
	}
	if na := ratios(rs.cell("a", "rate=1"), rs.cell("a", "base"), wallOf); na.ok() {
		t.Errorf("n/a cell has ratios %+v", na)
	}
}

func TestRatiosSkipFailedRuns(t *testing.T) {
	base := &cell{Runs: []run{{Rep: 0, Wall: 1, Status: statusOK}, {Rep: 1, Wall: 1, Status: statusFail}}}
	c := &cell{Runs: []run{{Rep: 0, Wall: 3, Status: statusRaces}, {Rep: 1, Wall: 9, Status: statusOK}}}
	s := ratios(c, base, wallOf)
	if s.N != 1 || !near(s.Med, 3) {
		t.Errorf("ratios = %+v, want only repetition 0 (ratio 3)", s)
	}
}

func TestGeomean(t *testing.T) {
	if g := geomean([]float64{2, 8}); !near(g, 4) {
		t.Errorf("geomean(2, 8) = %v, want 4", g)
	}
	if g := geomean(nil); !math.IsNaN(g) {
		t.Errorf("geomean() = %v, want NaN", g)
	}
	rs := fakeResults()
	_, _, gt, _ := rs.summarize("race")
	// Medians 4 and 10.
	if gt.N != 2 || !near(gt.Med, math.Sqrt(40)) {
		t.Errorf("race geomean = %+v, want sqrt(40) over 2", gt)
	}
	_, _, g1, _ := rs.summarize("rate=1")
	if g1.N != 1 || !g1.AtLeast {
		t.Errorf("rate=1 geomean = %+v, want one workload, a lower bound", g1)
	}
}

func TestParseRates(t *testing.T) {
	rs, err := parseRates("0, 0.001,1")
	if err != nil || len(rs) != 3 || rs[1] != 0.001 {
		t.Errorf("parseRates = %v, %v", rs, err)
	}
	for _, bad := range []string{"2", "-0.1", "x", "NaN"} {
		if _, err := parseRates(bad); err == nil {
			t.Errorf("parseRates(%q) accepted", bad)
		}
	}
}

func TestConfigsFor(t *testing.T) {
	cs := configsFor(false, []modeRates{
		{modeDynamic, []float64{0, 0.03}},
		{modeStatic, []float64{0.01}},
		{modeCollide, []float64{0.001}},
	}, []float64{0.01}, []float64{0.1}, []float64{0.03}, []float64{0.01}, 42)
	want := []struct {
		name, label, mode string
		seed              int64
	}{
		{"base", "uninstrumented", modeDynamic, 0},
		{"rate=0", "racegen dynamic rate=0", modeDynamic, 0},
		{"rate=0.03", "racegen dynamic rate=0.03", modeDynamic, 0},
		{"static-rate=0.01", "racegen static rate=0.01 seed=42", modeStatic, 42},
		{"collide-rate=0.001", "racegen collide rate=0.001 seed=42", modeCollide, 42},
		{"own-rate=0.01", "racegen dynamic rate=0.01 accesspkg=./...", modeDynamic, 0},
		{"fresa-rate=0.1", "racegen dynamic rate=0.1 fresa", modeDynamic, 0},
		{"fresa-profile-rate=0.03", "racegen dynamic rate=0.03 fresa from a profile", modeDynamic, 0},
		{"static-profile-rate=0.01", "racegen static rate=0.01 seed=42 from a profile", modeStatic, 42},
	}
	if len(cs) != len(want) {
		t.Fatalf("configsFor = %+v, want %d configurations", cs, len(want))
	}
	for i, w := range want {
		c := cs[i]
		if c.Name != w.name || c.Label() != w.label || c.Seed != w.seed || (c.Kind == racegen && c.mode() != w.mode) {
			t.Errorf("config %d = %+v (label %q), want name %q, label %q, mode %s, seed %d", i, c, c.Label(), w.name, w.label, w.mode, w.seed)
		}
	}
	for _, c := range cs {
		if got, want := c.buildsFromProfile(), c.Name == "static-profile-rate=0.01"; got != want {
			t.Errorf("%s: buildsFromProfile = %v, want %v", c.Name, got, want)
		}
	}
	// Results saved before modes have no Mode: they are dynamic.
	if old := (config{Name: "rate=0.1", Kind: racegen, Rate: 0.1}); old.mode() != modeDynamic || old.Label() != "racegen dynamic rate=0.1" {
		t.Errorf("config without a mode: mode %q, label %q", old.mode(), old.Label())
	}
}

func TestModeSelection(t *testing.T) {
	for _, tc := range []struct {
		modes, static string
		want          []string // mode of each racegen configuration
		wantErr       bool
	}{
		{modes: "dynamic,static,collide", static: "0.01", want: []string{modeDynamic, modeDynamic, modeStatic, modeCollide}},
		{modes: "static", static: "0.01,0.1", want: []string{modeStatic, modeStatic}},
		{modes: "dynamic, collide", static: "0.01", want: []string{modeDynamic, modeDynamic, modeCollide}},
		{modes: "static", static: "", want: nil},
		{modes: "pacer", static: "0.01", wantErr: true},
		{modes: "static", static: "2", wantErr: true},
	} {
		o := options{modes: tc.modes, rates: "0,1", static: tc.static, collide: "0.001"}
		mrs, err := o.modeRates()
		if tc.wantErr {
			if err == nil {
				t.Errorf("-modes=%q -static-rates=%q accepted", tc.modes, tc.static)
			}
			continue
		}
		if err != nil {
			t.Errorf("-modes=%q -static-rates=%q: %v", tc.modes, tc.static, err)
			continue
		}
		var got []string
		for _, c := range configsFor(false, mrs, nil, nil, nil, nil, 1) {
			if c.Kind == racegen {
				got = append(got, c.mode())
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("-modes=%q -static-rates=%q: modes %v, want %v", tc.modes, tc.static, got, tc.want)
		}
	}
}

func TestReport(t *testing.T) {
	var b strings.Builder
	if err := writeReport(&b, fakeResults(), []string{"bench-time.svg"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	wantContains(t, "report", out,
		"`go run ./bench/driver -reps 3`",
		"| go test -race | 6.32x [6.00, 7.42] |",
		"| racegen dynamic rate=1 | >45.00x [45.00, 45.00] |",
		"racegen dynamic rate=1 on a: rejected by racegen: not built yet",
		"| racegen dynamic rate=1 | n/a | n/a | n/a | n/a | 0 |",
		"| racegen dynamic rate=1 | >90 | >45.00x |",
		"| racegen static rate=0.01 seed=7 | 1.02x [1.01, 1.02] |",
		"racegen modes: dynamic at rates 0.01, 1; static at rates 0.01 (built with -seed=7)",
		"1 (1 timeout)",
		"![bench-time.svg](bench-time.svg)",
	)
}

func TestPlotWellFormed(t *testing.T) {
	var b strings.Builder
	if err := writePlot(&b, fakeResults(), wallOf, "t", "y"); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(strings.NewReader(b.String()))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("plot is not well-formed XML: %v", err)
		}
	}
	wantContains(t, "plot", b.String(), "geomean, dynamic", "geomean, static (seed 7)", "workloads, static mode", "go -race geomean", ">1%<", ">100%<")
}

func TestRatiosSkipIncompleteRuns(t *testing.T) {
	base := &cell{Runs: []run{{Rep: 0, Wall: 1, Status: statusOK, Benchmarks: 2}, {Rep: 1, Wall: 1, Status: statusOK, Benchmarks: 2}}}
	c := &cell{Runs: []run{{Rep: 0, Wall: 0.1, Status: statusRaces, Benchmarks: 0}, {Rep: 1, Wall: 5, Status: statusRaces, Benchmarks: 2}}}
	if s := ratios(c, base, wallOf); s.N != 1 || !near(s.Med, 5) {
		t.Errorf("ratios = %+v, want only the complete repetition (ratio 5)", s)
	}
	if got := fmtRuns(c, base); got != "2 (2 races, 1 incomplete)" {
		t.Errorf("fmtRuns = %q", got)
	}
	if n := countBenchmarks([]byte("goos: linux\nBenchmarkA-2 \t 10\t 5 ns/op\n--- FAIL: BenchmarkB\nBenchmarkC/x-2 1 2 ns/op 3 B/op\n")); n != 2 {
		t.Errorf("countBenchmarks = %d, want 2", n)
	}
}
