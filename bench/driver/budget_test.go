package main

import (
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
	if err := writeBudget(&b, fakeResults(), ds, ps, "budget.svg"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| dynamic | 0.01 | 1.15x [1.10, 1.15] | 1.15x [1.10, 1.15] | 100 | 2 of 6 | 0 of 2 | 0 of 1 | 2 of 3 |",
		"| static | 0.01 | 1.02x [1.01, 1.02] | 1.02x [1.01, 1.02] | 99 | 2 of 6 | 2 of 2 | 0 of 1 | 0 of 3 |",
		"| collide | 0.01 | n/a | n/a | 100 | 3 of 6 | 0 of 2 | 1 of 1 | 2 of 3 |",
		"| dynamic | 1 | >45.00x [45.00, 45.00] | >250.00x [250.00, 250.00] | - | not run | - | - | - |",
		"- dynamic: no measured rate is within the budget (cheapest: rate 0.01 at 1.149x)",
		"- static: rate 0.01 (1.020x): 2 distinct races in 99 runs",
		"- collide: no measured rate is within the budget (cheapest: no cost measured)",
		"detection at rate 0.01, 100 runs per program: `go run ./bench/evalrate -sweep=false -mode-rate 0.01` (racegen abc1234)",
		"![budget.svg](budget.svg)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("budget report lacks %q:\n%s", want, out)
		}
	}
	var plot strings.Builder
	if err := writeBudgetPlot(&plot, ps); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dynamic (rates 0.01)", "static (rates 0.01)", "budget 1.05x"} {
		if !strings.Contains(plot.String(), want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	if strings.Contains(plot.String(), "collide (rates") {
		t.Errorf("plot draws collide mode, which has no cost")
	}
}

func TestLoadDetectionsRejects(t *testing.T) {
	for name, body := range map[string]string{
		"no modes comparison": `{"command": "go run ./bench/evalrate -modes ''", "rates": [{"rate": 0.01}]}`,
		"not JSON":            `eval-rate: 10:00:00 wrote docs/eval-rate.md`,
	} {
		if _, err := loadDetections([]string{writeDetection(t, body)}); err == nil {
			t.Errorf("%s: loadDetections accepted it", name)
		}
	}
}
