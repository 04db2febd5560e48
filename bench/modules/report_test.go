package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/report.golden.md")

// TestReportGolden writes the report of the golden module (go test, -race
// and racegen test, with a go test rerun and an explanation) and of a
// module that could not be prepared, and compares it with
// testdata/report.golden.md.
func TestReportGolden(t *testing.T) {
	m := goldenModule(t)
	m.Reruns = map[string]*testResult{
		"TestSubtestOrder": {Pkg: ".", Name: "TestSubtestOrder", Status: statusPass, Runs: 3},
		"sub.TestEnv":      {Pkg: "sub", Name: "TestEnv", Status: statusFail, Runs: 3, Fails: 1},
	}
	defer func(saved []explained) { explanations = saved }(explanations)
	explanations = []explained{{
		Module: "example.com/golden", Subject: "TestSubtestOrder", Match: "counter_test.go:31 ↔ counter_test.go:32",
		Text: "issue 18 item 3: the subtest's accesses are not ordered before the parent's code after t.Run returns.",
	}, {
		// Matches nothing: the race is another.
		Module: "example.com/golden", Subject: "TestRace", Match: "counter.go:8",
		Text: "a stale explanation",
	}}

	rs := &results{
		Command:        "go run ./bench/modules -forms go,race,full",
		Date:           "2026-01-02 03:04 UTC",
		Machine:        "linux/amd64, a CPU, 2 cores",
		GoVersion:      "go version go1.26.8 linux/amd64",
		Racegen:        "commit 89abcde",
		RacegenSources: "0123456",
		Timeout:        1200,
		Reruns:         3,
		NetNS:          true,
		Env:            runEnv,
		Forms:          []string{formGo, formRace, formFull},
		Modules: []*moduleResult{m, {
			Module:  module{Path: "example.com/gone", Version: "v0.1.0", Why: "a module the proxy does not serve"},
			PrepErr: "downloading example.com/gone@v0.1.0: not found",
		}},
		Wall: 4000,
		Load: []string{"1.50 1.20 0.90", "9.10 8.00 7.50"},
	}
	var b strings.Builder
	if err := writeReport(&b, rs); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.golden.md")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("report differs from %s (go test -update rewrites it); got:\n%s", golden, b.String())
	}
}
