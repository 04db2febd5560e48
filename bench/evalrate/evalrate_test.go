package main

import (
	"encoding/xml"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEvalraceMarkers checks that the evaluation program marks ten
// races, each on two lines or on one line run by two goroutines.
func TestEvalraceMarkers(t *testing.T) {
	lines, names, err := loadProgram(filepath.Join("..", "..", "testdata", "evalrace"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 10 {
		t.Errorf("%d races marked, want 10: %v", len(names), names)
	}
	count := map[string]int{}
	for _, n := range lines {
		count[n]++
	}
	for _, n := range names {
		if count[n] > 2 {
			t.Errorf("race %s marked on %d lines", n, count[n])
		}
	}
}

func TestOptionUnsupported(t *testing.T) {
	e := []byte("racegen: RACEGEN_OPTIONS: seed=1: unknown option\n")
	if !optionUnsupported(e, "seed") || optionUnsupported(e, "rate") {
		t.Error("optionUnsupported misreads the start-up complaint")
	}
}

func TestWilsonAndBand(t *testing.T) {
	lo, hi := wilson(10, 1000)
	if !(lo < 0.01 && hi > 0.01 && lo > 0.004 && hi < 0.02) {
		t.Errorf("wilson(10, 1000) = [%v, %v]", lo, hi)
	}
	if lo, hi := wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("wilson(0, 0) = [%v, %v]", lo, hi)
	}
	if !inBand(0.015, 0.01) || inBand(0.004, 0.01) || inBand(0.021, 0.01) {
		t.Error("inBand wrong")
	}
	if autoTrials(0.01) != 10000 || autoTrials(0.25) != 400 {
		t.Errorf("autoTrials = %d, %d", autoTrials(0.01), autoTrials(0.25))
	}
}

func fakeResults() *results {
	return &results{
		Command: "go run ./bench/evalrate", Races: []string{"one", "two"},
		Rates: []rateResult{
			{Rate: 0.1, Trials: 100, Found: map[string]int{"one": 10, "two": 25}, How: "built with -rate=0.1"},
			{Rate: 0.25, NA: "racegen: not built yet"},
		},
		Full: rateResult{Rate: 1, Trials: 5, Found: map[string]int{"one": 5, "two": 5}},
	}
}

func TestReportAndPlot(t *testing.T) {
	rs := fakeResults()
	if !rs.fullOK() {
		t.Error("fullOK false for a full result")
	}
	var b strings.Builder
	if err := writeReport(&b, rs, "eval-rate.svg"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| one | 0.1000 [", "| two | **0.2500 [", "n/a: racegen: not built yet", "every race was found in every trial", "0.175 / 0.1 = 1.75"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	var p strings.Builder
	if err := writePlot(&p, rs); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(strings.NewReader(p.String()))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("plot is not well-formed XML: %v", err)
		}
	}
	printSummary(io.Discard, rs)
	rs.Full.Found["two"] = 4
	var b2 strings.Builder
	if err := writeReport(&b2, rs, "p.svg"); err != nil || !strings.Contains(b2.String(), "- two: found in 4 of 5 trials") {
		t.Errorf("report does not name the miss at rate 1: %v\n%s", err, b2.String())
	}
	if rs.fullOK() {
		t.Error("fullOK true with a miss")
	}
}

// TestManyMarkers checks the modes corpus: 36 races named TIMING-SHAPE,
// nine per timing, each on at most two lines.
func TestManyMarkers(t *testing.T) {
	lines, names, err := loadProgram(filepath.Join("..", "..", "testdata", "evalrace", "many"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 36 {
		t.Errorf("%d races marked, want 36", len(names))
	}
	perTiming := map[string]int{}
	for _, n := range names {
		timing := ""
		for _, tm := range []string{"once-sync-", "once-hold-", "loop-sync-", "loop-"} {
			if strings.HasPrefix(n, tm) {
				timing = tm
				break
			}
		}
		if timing == "" {
			t.Errorf("race %s: name has no timing prefix", n)
		}
		perTiming[timing]++
	}
	for _, tm := range []string{"once-sync-", "once-hold-", "loop-sync-", "loop-"} {
		if perTiming[tm] != 9 {
			t.Errorf("timing %s has %d races, want 9", tm, perTiming[tm])
		}
	}
	count := map[string]int{}
	for _, n := range lines {
		count[n]++
	}
	for _, n := range names {
		if count[n] > 2 {
			t.Errorf("race %s marked on %d lines", n, count[n])
		}
	}
}

func TestSampledSites(t *testing.T) {
	lines := raceLines{4: "one", 5: "one", 6: "two"}
	out := `racegen: sampled /x/main.go:5:6
racegen: sampled /x/other.go:4:1
racegen: sampled /x/main.go:9:2
racegen: example.com/x: 40 access sites, 3 hooked, 2 (5.0%) dropped as goroutine-local, 3 of 38 (7.9%) sampled
racegen: 1 packages: 40 access sites, 3 hooked, 2 (5.0%) dropped as goroutine-local, 3 of 38 (7.9%) sampled
`
	races, sampled, sites := sampledSites(out, "main.go", lines)
	if len(races) != 1 || !races["one"] {
		t.Errorf("races with a sampled site = %v, want only one", races)
	}
	if sampled != 3 || sites != 38 {
		t.Errorf("sampled %d of %d sites, want 3 of 38 (the per-package line only)", sampled, sites)
	}
}

func TestModesReport(t *testing.T) {
	rs := &results{
		Command: "go run ./bench/evalrate -sweep=false", ModeRate: 0.01, ModeRuns: 100,
		Programs: []programResult{{
			Dir: "testdata/p", Races: []string{"one", "two", "three"},
			Full: []modeResult{
				{Mode: modeDynamic, Rate: 1, Runs: 10, Found: map[string]int{"one": 10, "two": 10, "three": 10}},
				{Mode: modeStatic, Rate: 1, Runs: 10, Found: map[string]int{"one": 10}},
			},
			Modes: []modeResult{
				{Mode: modeDynamic, Rate: 0.01, Runs: 100, Found: map[string]int{"one": 1, "two": 0}},
				{Mode: modeStatic, Rate: 0.01, Runs: 100, Found: map[string]int{"one": 2, "three": 1},
					Sampled: map[string]int{"one": 3, "three": 2}, SitesSampled: 150, Sites: 15000, Failed: 1,
					Seconds: []float64{1, 2, 6}},
			},
		}},
	}
	var b strings.Builder
	if err := writeReport(&b, rs, ""); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| testdata/p | 3 | 1 | 2 | 2.00 |",
		"| one | 10/10 | 10/10 | 1 | 2 [3] |",
		"| three | 10/10 | 0/10 | 0 | 1 [2] |",
		"| **distinct** | **3** | **1** | **1** | **2** |",
		"150 of 15000 sites sampled over all builds (1.00%), 1.5 per build",
		"1 run(s) failed",
		"| testdata/p | static | 2 | 3 | 2.00 | 3.00 | 6.00 |",
		"| testdata/p | dynamic | 1 | 1 | - | - | - |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Full detection") {
		t.Errorf("report without a sweep has a sweep section:\n%s", out)
	}
}

func TestRacegenMode(t *testing.T) {
	tests := []struct {
		mode, flag string
		profile    bool
	}{
		{modeDynamic, "dynamic", false},
		{modeStatic, "static", false},
		{modeStaticProfile, "static", true},
		{modeCollideProfile, "collide", true},
	}
	for _, tt := range tests {
		if flag, profile := racegenMode(tt.mode); flag != tt.flag || profile != tt.profile {
			t.Errorf("racegenMode(%q) = %q, %v; want %q, %v", tt.mode, flag, profile, tt.flag, tt.profile)
		}
	}
	if len(allModes) != 3 || !slices.Contains(knownModes, modeCollideProfile) {
		t.Errorf("allModes %v, knownModes %v: the default must stay the three modes, and every mode be known", allModes, knownModes)
	}
}

func TestFailureText(t *testing.T) {
	crash := "fatal error: concurrent map read and map write\n\ngoroutine 7 [running]:\nmain.main.func5()\n\t/x/main.go:94 +0xa5\nmain.pair.func2()\n\t/x/main.go:41 +0x77\ncreated by main.pair in goroutine 1\n\t/x/main.go:41 +0x132\n"
	tests := []struct {
		name, in, want string
	}{
		{"short", "{\"a\":1}\npanic: boom\n", "panic: boom"},
		{"crash after a report", "{\"a\":1}\n" + crash,
			"fatal error: concurrent map read and map write\n\ngoroutine 7 [running]:\n\t...\n\t/x/main.go:94 +0xa5\nmain.pair.func2()\n\t/x/main.go:41 +0x77\ncreated by main.pair in goroutine 1\n\t/x/main.go:41 +0x132"},
	}
	for _, tt := range tests {
		if got := failureText(tt.in, 3, 5); got != tt.want {
			t.Errorf("%s: failureText =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}
