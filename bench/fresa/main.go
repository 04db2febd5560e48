// Command fresa is racegen's FRESA harness (make eval-fresa). It puts
// uniform dynamic sampling and FRESA's frequency-sensitive sampling side
// by side on racegen's evaluation programs: for each program, each
// sampling mode and each rate of a ladder, it measures the overhead
// (median wall time of sequential runs against the uninstrumented build's)
// and the distinct races found over many runs, and writes docs/fresa.md
// with the tables and, for each overhead budget, what each mode finds
// within it.
//
// The modes:
//
//   - uniform: racegen -rate=r, Pacer's sampling;
//   - fresa: racegen -fresa -rate=r, FRESA in Pacer's sampling periods,
//     starting cold;
//   - fresa+profile: racegen -fresa -profile=P -rate=r, where P is the
//     merged profile of a few earlier runs of a FRESA build (profile_out):
//     the groups are known from the first access.
//
// Usage, from the repository root:
//
//	go run ./bench/fresa [flags]
//
// Flags:
//
//	-programs list  evaluation programs, comma-separated directories
//	                (default testdata/evalrace/cold,testdata/evalrace/many,testdata/evalrace)
//	-rates list     sampling rates (default 0.01,0.03,0.1)
//	-modes list     sampling modes, comma-separated (default uniform,fresa,fresa+profile)
//	-runs n         detection runs per program, mode and rate (default 100)
//	-timing n       timed runs per build, one at a time (default 3)
//	-profile-runs n runs that write the profile (default 3)
//	-profile-rate r their rate (default 0.1)
//	-budgets list   overhead budgets of the summary (default 1.1,1.5,2,3)
//	-parallel n     detection runs at once (default 2)
//	-racegen path   racegen command (default: built from this repository)
//	-work dir       scratch directory
//	-out file       markdown report (default docs/fresa.md)
//	-report file    write the report from a saved results.json only
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/racegen/racegen/bench/internal/flaglist"
	"github.com/racegen/racegen/bench/internal/runinfo"
)

type options struct {
	programs    string
	rates       string
	modes       string
	runs        int
	timing      int
	profileRuns int
	profileRate float64
	budgets     string
	parallel    int
	racegenBin  string
	work        string
	out         string
	report      string
}

func main() {
	if err := mainErr(); err != nil {
		fmt.Fprintf(os.Stderr, "eval-fresa: %v\n", err)
		os.Exit(1)
	}
}

func mainErr() error {
	var o options
	flag.StringVar(&o.programs, "programs", "testdata/evalrace/cold,testdata/evalrace/many,testdata/evalrace", "evaluation programs, comma-separated")
	flag.StringVar(&o.rates, "rates", "0.01,0.03,0.1", "sampling rates, comma-separated")
	flag.StringVar(&o.modes, "modes", strings.Join(modes, ","), "sampling modes, comma-separated")
	flag.IntVar(&o.runs, "runs", 100, "detection runs per program, mode and rate")
	flag.IntVar(&o.timing, "timing", 3, "timed runs per build, one at a time")
	flag.IntVar(&o.profileRuns, "profile-runs", 3, "runs that write the profile")
	flag.Float64Var(&o.profileRate, "profile-rate", 0.1, "sampling rate of the profile runs")
	flag.StringVar(&o.budgets, "budgets", "1.1,1.5,2,3", "overhead budgets of the summary, comma-separated")
	flag.IntVar(&o.parallel, "parallel", 2, "detection runs at once")
	flag.StringVar(&o.racegenBin, "racegen", "", "racegen `command` (default: built from this repository)")
	flag.StringVar(&o.work, "work", filepath.Join(os.TempDir(), "racegen-fresa"), "scratch `dir`ectory")
	flag.StringVar(&o.out, "out", "docs/fresa.md", "markdown report `file`")
	flag.StringVar(&o.report, "report", "", "write the report from this saved results `file` only")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	var rs *results
	var err error
	if o.report != "" {
		rs = new(results)
		err = runinfo.LoadJSON(o.report, rs)
	} else {
		rs, err = evaluate(&o)
	}
	if err != nil {
		return err
	}
	f, err := os.Create(o.out)
	if err != nil {
		return err
	}
	if err := writeReport(f, rs); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	logf("wrote %s", o.out)
	return f.Close()
}

// parseFloats parses a comma-separated list of numbers above 0.
func parseFloats(s string) ([]float64, error) {
	return flaglist.Floats(s, func(x float64) bool { return x > 0 }, "a number above 0")
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "eval-fresa: %s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
