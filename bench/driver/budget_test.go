package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		dir, name string
		want      raceClass
	}{
		{"testdata/evalrace", "wg-counter", notClock},
		{"testdata/evalrace", "once-hold-field-wr", notClock}, // only many's names carry timings
		{"testdata/evalrace/many", "once-hold-field-wr", clockRace},
		{"testdata/evalrace/many", "loop-global-rmw", clockRace},
		{"testdata/evalrace/many", "loop-sync-global-rmw", someClock},
		{"testdata/evalrace/many", "once-sync-slice-ww", notClock},
	} {
		if got := classify(tc.dir, tc.name); got != tc.want {
			t.Errorf("classify(%q, %q) = %s, want %s", tc.dir, tc.name, raceClassNames[got], raceClassNames[tc.want])
		}
	}
}

// detectionFile is a bench/evalrate results file as that command saves
// it, trimmed to two programs, with fields the budget report ignores.
const detectionFile = `{
  "command": "go run ./bench/evalrate -sweep=false -mode-rate 0.01",
  "racegen": "abc1234",
  "races": [],
  "rates": [],
  "mode_rate": 0.01,
  "mode_runs": 100,
  "programs": [
    {"dir": "testdata/evalrace", "races": ["r1", "r2"], "full": [],
     "modes": [
       {"mode": "dynamic", "rate": 0.01, "how": "one build", "runs": 100, "found": {"r1": 3, "r2": 0}, "failed": 0},
       {"mode": "static", "rate": 0.01, "runs": 100, "found": {}, "sampled": {"r1": 2}},
       {"mode": "collide", "rate": 0.01, "runs": 100, "found": {"r1": 1, "r2": 1}}
     ]},
    {"dir": "testdata/evalrace/many", "races": ["once-hold-x", "once-sync-y", "loop-sync-z", "loop-w"],
     "modes": [
       {"mode": "dynamic", "rate": 0.01, "runs": 100, "found": {"once-sync-y": 1}},
       {"mode": "static", "rate": 0.01, "runs": 99, "found": {"once-hold-x": 1, "loop-w": 2, "loop-sync-z": 0}},
       {"mode": "collide", "rate": 0.01, "runs": 100, "found": {"loop-sync-z": 1}}
     ]}
  ]
}`

func writeDetection(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBudget(t *testing.T) {
	ds, err := loadDetections([]string{writeDetection(t, detectionFile)})
	if err != nil {
		t.Fatal(err)
	}
	// fakeResults costs dynamic mode at 1% 1.15x and static mode 1.02x,
	// and has no collide configuration.
	var b strings.Builder
	ps := budgetPoints(fakeResults(), ds)
	if err := writeBudget(&b, fakeResults(), ds, ps, defaultBudget, "budget.svg"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	wantContains(t, "budget report", out,
		"| dynamic | 0.01 | 1.15x [1.10, 1.15] | 1.15x [1.10, 1.15] | 100 | 2 of 6 | 4 | 0 of 2 | 0 of 1 | 2 of 3 |",
		"| static | 0.01 | 1.02x [1.01, 1.02] | 1.02x [1.01, 1.02] | 99 | 2 of 6 | 3 | 2 of 2 | 0 of 1 | 0 of 3 |",
		"| collide | 0.01 | not measured | not measured | 100 | 3 of 6 | 3 | 0 of 2 | 1 of 1 | 2 of 3 |",
		"| dynamic | 1 | >45.00x [45.00, 45.00] | >250.00x [250.00, 250.00] | - | not run | - | - | - | - |",
		"- dynamic: no measured rate is within the budget (cheapest: rate 0.01 at 1.149x)",
		"- static: rate 0.01 (1.020x): 2 distinct races in 99 runs (finds: 3)",
		"- collide: no measured rate is within the budget (cheapest: no cost measured)",
		"detection at rate 0.01, 100 runs per program: `go run ./bench/evalrate -sweep=false -mode-rate 0.01` (racegen abc1234)",
		"![budget.svg](budget.svg)",
	)
	var plot strings.Builder
	if err := writeBudgetPlot(&plot, ps, defaultBudget); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "plot", plot.String(), "dynamic (rates 0.01)", "static (rates 0.01)", "budget 1.05x")
	if strings.Contains(plot.String(), "collide (rates") {
		t.Errorf("plot draws collide mode, which has no cost")
	}
}

// fresaDetectionFile is a bench/fresa results file as that command saves
// it, trimmed to two programs and two rates.
const fresaDetectionFile = `{
  "command": "go run ./bench/fresa -runs 100 -rates 0.001,0.01,0.1",
  "racegen": "def5678",
  "runs": 100,
  "timing": 1,
  "budgets": [1.1],
  "programs": [
    {"dir": "testdata/evalrace/cold", "races": ["c1", "c2"], "plain": 0.7,
     "cells": [
       {"mode": "uniform", "rate": 0.001, "seconds": 1.3, "runs": 100, "found": {"c1": 1}, "failed": 0},
       {"mode": "uniform", "rate": 0.01, "seconds": 1.4, "runs": 100, "found": {"c1": 2, "c2": 0}},
       {"mode": "fresa", "rate": 0.01, "seconds": 0.9, "runs": 100, "found": {"c1": 1}},
       {"mode": "fresa", "rate": 0.1, "seconds": 1.0, "runs": 100, "found": {"c1": 9, "c2": 4}},
       {"mode": "fresa+profile", "rate": 0.1, "seconds": 0.8, "runs": 100, "found": {"c1": 9, "c2": 9}}
     ]},
    {"dir": "testdata/evalrace", "races": ["r1", "r2"], "plain": 0.03,
     "cells": [
       {"mode": "uniform", "rate": 0.001, "seconds": 0.04, "runs": 100, "found": {}},
       {"mode": "uniform", "rate": 0.01, "seconds": 0.04, "runs": 100, "found": {"r2": 1}},
       {"mode": "fresa", "rate": 0.01, "seconds": 0.04, "runs": 100, "found": {"r2": 1}},
       {"mode": "fresa", "rate": 0.1, "seconds": 0.04, "runs": 99, "found": {"r1": 7, "r2": 12}},
       {"mode": "fresa+profile", "rate": 0.1, "seconds": 0.04, "runs": 100, "found": {"r1": 8, "r2": 12}}
     ]}
  ]
}`

// fresaResults costs uniform dynamic sampling at rate 0 1.01x, at 0.1%
// 1.05x and at 1% 1.12x, FRESA at 1% 1.02x and at 10% 1.07x, and FRESA
// from a profile at 10% 1.04x.
func fresaResults() *results {
	rs := &results{
		Command: "go run ./bench/driver -modes dynamic -rates 0.001,0.01 -fresa-rates 0.01,0.1", Reps: 1, Timeout: 90,
		Workloads: []workload{
			{Name: "a", Pkg: "bench/workloads/a", Bench: ".", Benchtime: "1x"},
			{Name: "b", Module: "example.com/b", Version: "v1.0.0", Pkg: ".", Bench: ".", Benchtime: "1x"},
		},
		Configs: configsFor(false, []modeRates{{modeDynamic, []float64{0, 0.001, 0.01}}}, nil, []float64{0.01, 0.1}, []float64{0.1}, nil, 7),
	}
	one := func(w float64) []run { return []run{{Wall: w, RSS: int64(w * 1e6), Status: statusOK}} }
	for _, c := range []struct {
		config string
		a, b   float64 // wall times of workloads a and b
	}{
		{"base", 1, 2},
		{"rate=0", 1.01, 2.02},
		{"rate=0.001", 1.05, 2.1},
		{"rate=0.01", 1.12, 2.24},
		{"fresa-rate=0.01", 1.02, 2.04},
		{"fresa-rate=0.1", 1.07, 2.14},
		{"fresa-profile-rate=0.1", 1.04, 2.08},
	} {
		rs.Cells = append(rs.Cells, &cell{Workload: "a", Config: c.config, Runs: one(c.a)}, &cell{Workload: "b", Config: c.config, Runs: one(c.b)})
	}
	return rs
}

func TestBudgetFresa(t *testing.T) {
	ds, err := loadDetections([]string{writeDetection(t, fresaDetectionFile)})
	if err != nil {
		t.Fatal(err)
	}
	rs := fresaResults()
	ps := budgetPoints(rs, ds)
	var b strings.Builder
	if err := writeBudget(&b, rs, ds, ps, 1.10, "fresa-budget.svg"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	wantContains(t, "budget report", out,
		"highest measured rate whose slowdown is at most 1.10x",
		"detection at rates 0.001, 0.01, 0.1, 100 runs per program: `go run ./bench/fresa -runs 100 -rates 0.001,0.01,0.1` (racegen def5678)",
		"| dynamic | 0.001 | 1.05x [1.05, 1.05] | 1.05x [1.05, 1.05] | 100 | 1 of 4 | 1 |",
		"| dynamic | 0.01 | 1.12x [1.12, 1.12] | 1.12x [1.12, 1.12] | 100 | 2 of 4 | 3 |",
		"| fresa | 0.01 | 1.02x [1.02, 1.02] | 1.02x [1.02, 1.02] | 100 | 2 of 4 | 2 |",
		"| fresa | 0.1 | 1.07x [1.07, 1.07] | 1.07x [1.07, 1.07] | 99 | 4 of 4 | 32 |",
		"- dynamic: rate 0.001 (1.050x): 1 distinct races in 100 runs (finds: 1)",
		"- fresa: rate 0.1 (1.070x): 4 distinct races in 99 runs (finds: 32)",
		"FRESA against uniform dynamic sampling within 1.10x: 4 against 1 distinct races (4.00x), 32 against 1 finds (32.00x).",
		"- fresa at rate 0.01 (1.020x, 2 of 4): dynamic at rate 0.01 (1.120x, 2 of 4), overhead 6.00x lower",
		"- fresa at rate 0.1 (1.070x, 4 of 4): no measured dynamic rate finds as many",
		"| fresa+profile | 0.1 | 1.04x [1.04, 1.04] | 1.04x [1.04, 1.04] | 100 | 4 of 4 | 38 |",
		"- fresa+profile: rate 0.1 (1.040x): 4 distinct races in 100 runs (finds: 38)",
		"FRESA from a profile against FRESA starting cold within 1.10x: 4 against 4 distinct races (1.00x), 38 against 32 finds (1.19x).",
		"- fresa+profile at rate 0.1 (1.040x, 4 of 4): fresa at rate 0.1 (1.070x, 4 of 4), overhead 1.75x lower",
	)
	if strings.Index(out, "| dynamic | 0.01 |") > strings.Index(out, "| fresa | 0.01 |") {
		t.Errorf("fresa's rows come before dynamic mode's:\n%s", out)
	}
	b.Reset()
	if err := writeBudget(&b, rs, ds, ps, 1.03, "fresa-budget.svg"); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "budget report at 1.03x", b.String(),
		"- dynamic: rate 0 (1.010x): samples nothing, so finds no race",
		"- fresa: rate 0.01 (1.020x): 2 distinct races in 100 runs (finds: 2)",
		"- fresa+profile: no measured rate is within the budget (cheapest: rate 0.1 at 1.040x)",
	)
	if strings.Contains(b.String(), "FRESA from a profile against FRESA starting cold within") {
		t.Errorf("budget report at 1.03x compares FRESA from a profile, which has no rate within it:\n%s", b.String())
	}
	var plot strings.Builder
	if err := writeBudgetPlot(&plot, ps, 1.10); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "plot", plot.String(), "dynamic (rates 0.001, 0.01)", "fresa (rates 0.01, 0.1)", "fresa+profile (rates 0.1)", "budget 1.10x")
}

// TestBudgetWithoutOtherDetection checks that a comparison at equal
// detection is left out when the mode compared with was costed but its
// detection not run: "no rate finds as many" would be said of runs that
// were never made.
func TestBudgetWithoutOtherDetection(t *testing.T) {
	ds, err := loadDetections([]string{writeDetection(t, strings.ReplaceAll(fresaDetectionFile, `"mode": "uniform"`, `"mode": "not run"`))})
	if err != nil {
		t.Fatal(err)
	}
	rs := fresaResults()
	var b strings.Builder
	if err := writeBudget(&b, rs, ds, budgetPoints(rs, ds), 1.10, "fresa-budget.svg"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "FRESA against uniform dynamic sampling at equal detection") {
		t.Errorf("budget report compares FRESA with uniform sampling, whose detection was not run:\n%s", out)
	}
	wantContains(t, "budget report", out, "FRESA from a profile against FRESA starting cold at equal detection")
}

func TestLoadDetectionsRejects(t *testing.T) {
	for name, body := range map[string]string{
		"no modes comparison": `{"command": "go run ./bench/evalrate -modes ''", "rates": [{"rate": 0.01}]}`,
		"not JSON":            `eval-rate: 10:00:00 wrote docs/eval-rate.md`,
		"cost results":        `{"command": "go run ./bench/driver", "cells": [{"workload": "a", "config": "base"}]}`,
	} {
		if _, err := loadDetections([]string{writeDetection(t, body)}); err == nil {
			t.Errorf("%s: loadDetections accepted it", name)
		}
	}
}

func TestAtEqualDetection(t *testing.T) {
	point := func(mode string, rate, slowdown float64, found, races int) budgetPoint {
		return budgetPoint{Mode: mode, Rate: rate, Config: fmt.Sprint(mode, rate),
			Time: geoSummary{Med: slowdown, N: 2}, Runs: 100, Races: races, Found: found}
	}
	ps := []budgetPoint{
		point(modeDynamic, 0.1, 1.30, 3, 5),
		point(modeDynamic, 0.03, 1.20, 3, 5),  // the cheapest that finds as many
		point(modeDynamic, 0.01, 1.10, 2, 5),  // cheaper, finds fewer
		point(modeDynamic, 0.001, 1.05, 4, 6), // other programs
		point(modeFresa, 0.03, 1.08, 3, 5),
		point(modeFresa, 0.1, 1.10, 5, 5),                           // more than any uniform rate
		{Mode: modeFresa, Rate: 0.3, Runs: 100, Races: 5, Found: 5}, // not costed
	}
	got := atEqualDetection(ps, modeFresa, modeDynamic)
	want := []struct {
		fresa, uniform float64 // rates; uniform 0 when none finds as many
	}{
		{0.03, 0.03},
		{0.1, 0},
	}
	if len(got) != len(want) {
		t.Fatalf("atEqualDetection: %d comparisons, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.point.Rate != w.fresa || g.ok != (w.uniform != 0) || g.ok && g.against.Rate != w.uniform {
			t.Errorf("comparison %d: fresa at %v against uniform at %v (found: %v), want fresa at %v against uniform at %v",
				i, g.point.Rate, g.against.Rate, g.ok, w.fresa, w.uniform)
		}
	}
}
