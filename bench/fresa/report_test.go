package main

import (
	"strings"
	"testing"
)

// testResults is a run of two modes on one program: uniform sampling at
// 1% (1.5x, one race of two) and FRESA at 1% and 3% (1.2x, one race; 1.6x,
// both).
func testResults(profile string) *results {
	return &results{
		Command: "go run ./bench/fresa -modes uniform,fresa", Runs: 100, Timing: 3,
		Profile: profile, Budgets: []float64{1.5},
		Programs: []programResult{{
			Dir: "testdata/p", Races: []string{"a", "b"}, Plain: 2,
			Cells: []cellResult{
				{Mode: modeUniform, Rate: 0.01, Seconds: 3, Runs: 100, Found: map[string]int{"a": 2}},
				{Mode: modeFresa, Rate: 0.01, Seconds: 2.4, Runs: 100, Found: map[string]int{"a": 1}},
				{Mode: modeFresa, Rate: 0.03, Seconds: 3.2, Runs: 100, Found: map[string]int{"a": 3, "b": 1}, Unexpected: []string{"2x main.go:9"}},
			},
		}},
	}
}

func TestWriteReport(t *testing.T) {
	for _, tc := range []struct {
		name, profile string
		want, not     []string
	}{
		{
			name: "no profile made",
			want: []string{
				"over 100 runs, two at a time.\n\n",
				"| program | budget | uniform | fresa | fresa / uniform |\n",
				"| testdata/p | 1.5x | 1 at 0.01 (1.50x) | 1 at 0.01 (1.20x) | 1.00 |",
				"| fresa | 0.03 | 1.60x | 2 of 2 | 0.020 | 0 |",
				"- fresa rate 0.03, a report of no marked race: 2x main.go:9",
			},
			not: []string{"*fresa+profile* starts from a", "fresa+profile |"},
		},
		{
			name:    "from a profile",
			profile: "the sum of 3 runs",
			want: []string{
				"*fresa+profile* starts from a\nprofile: the sum of 3 runs.",
				"| program | budget | fresa | fresa+profile | fresa+profile / fresa |\n",
				"| testdata/p | 1.5x | 1 at 0.01 (1.20x) | 2 at 0.03 (1.40x) | 2.00 |",
			},
			not: []string{"uniform |"},
		},
	} {
		var b strings.Builder
		rs := testResults(tc.profile)
		if tc.profile != "" {
			// FRESA from the profile finds both races within 1.5x, and
			// uniform sampling was not run.
			cs := rs.Programs[0].Cells
			rs.Programs[0].Cells = append(cs[1:], cellResult{Mode: modeProfile, Rate: 0.03, Seconds: 2.8, Runs: 100, Found: map[string]int{"a": 2, "b": 2}})
		}
		if err := writeReport(&b, rs); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: report lacks %q:\n%s", tc.name, w, b.String())
			}
		}
		for _, n := range tc.not {
			if strings.Contains(b.String(), n) {
				t.Errorf("%s: report has %q:\n%s", tc.name, n, b.String())
			}
		}
	}
}
