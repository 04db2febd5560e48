package main

import (
	"encoding/xml"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

const src = `package main

func main() {
	x = 1 // race: one
	_ = x // race: one
	y = 2 // race: two
}
`

func TestReadMarkers(t *testing.T) {
	lines, names := readMarkers([]byte(src))
	if len(names) != 2 || names[0] != "one" || names[1] != "two" {
		t.Fatalf("names = %v, want [one two]", names)
	}
	if lines[4] != "one" || lines[5] != "one" || lines[6] != "two" || len(lines) != 3 {
		t.Fatalf("lines = %v", lines)
	}
}

func TestParseReports(t *testing.T) {
	lines, _ := readMarkers([]byte(src))
	stderr := `racegen: some start-up note
{"addr":"0x1","access":{"op":"read","goroutine":7,"stack":[{"func":"main.main.func1","file":"/x/main.go","line":5},{"func":"main.pair","file":"/x/main.go","line":40}]},"previous":{"op":"write","goroutine":6,"stack":[{"func":"main.main.func2","file":"/x/main.go","line":4}]}}
{"addr":"0x2","access":{"op":"write","goroutine":7,"stack":[{"func":"helper","file":"/x/other.go","line":6},{"func":"main.main","file":"/x/main.go","line":6}]},"previous":{"op":"write","goroutine":6,"stack":[{"func":"main.main","file":"/x/main.go","line":9}]}}
not json
`
	v, err := parseReports([]byte(stderr), "main.go", lines)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Found["one"] || len(v.Found) != 1 {
		t.Errorf("found %v, want only one", v.Found)
	}
	if len(v.Unexpected) != 1 || !strings.Contains(v.Unexpected[0], "main.go:9") {
		t.Errorf("unexpected = %q, want the report naming line 9", v.Unexpected)
	}
	if _, err := parseReports([]byte("{broken\n"), "main.go", lines); err == nil {
		t.Error("broken JSON accepted")
	}
}

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
	if autoTrials(0.01) != 2500 || autoTrials(0.25) != 300 {
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
