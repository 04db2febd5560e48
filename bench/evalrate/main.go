// Command evalrate is racegen's proportionality harness (make
// eval-rate). It builds the evaluation program testdata/evalrace, whose
// ten races occur in every run, with racegen at each sampling rate, runs
// it many times per rate, and reports how often each race was detected
// against the ideal, the rate itself, with the band [r/2, 2r] that
// racegen's dynamic sampling promises (Pacer's Figures 3-5). At rate 1
// every race must be found in every trial.
//
// Usage, from the repository root:
//
//	go run ./bench/evalrate [flags]
//
// Flags:
//
//	-rates list     sampling rates, comma-separated (default 0.01,0.03,0.1,0.25)
//	-trials n       trials per rate (default: enough to expect about 25
//	                detections per race, at least 300)
//	-full n         trials at rate 1 (default 200)
//	-parallel n     trials run at once (default 2)
//	-racegen path   racegen command (default: built from this repository)
//	-work dir       scratch directory
//	-out file       markdown report (default docs/eval-rate.md); the plot
//	                goes beside it as NAME.svg
//	-report file    write the report from a saved results.json only
//
// Each trial runs the binary with RACEGEN_OPTIONS=format=json, adding
// rate=R and seed=N (a different seed per trial) when the runtime knows
// those options. A rate racegen rejects at build time is run through a
// rate-1 build with rate=R in RACEGEN_OPTIONS if the runtime accepts
// that, and is otherwise recorded as n/a.
package main

import (
	"flag"
	"fmt"
	"github.com/racegen/racegen/bench/internal/runinfo"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if err := mainErr(); err != nil {
		fmt.Fprintf(os.Stderr, "eval-rate: %v\n", err)
		os.Exit(1)
	}
}

type options struct {
	rates      string
	trials     int
	full       int
	parallel   int
	racegenBin string
	work       string
	out        string
	report     string
}

func mainErr() error {
	var o options
	flag.StringVar(&o.rates, "rates", "0.01,0.03,0.1,0.25", "sampling rates, comma-separated")
	flag.IntVar(&o.trials, "trials", 0, "trials per rate (0: automatic)")
	flag.IntVar(&o.full, "full", 200, "trials at rate 1")
	flag.IntVar(&o.parallel, "parallel", 2, "trials run at once")
	flag.StringVar(&o.racegenBin, "racegen", "", "racegen `command` (default: built from this repository)")
	flag.StringVar(&o.work, "work", filepath.Join(os.TempDir(), "racegen-evalrate"), "scratch `dir`ectory")
	flag.StringVar(&o.out, "out", "docs/eval-rate.md", "markdown report `file`")
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
	printSummary(os.Stdout, rs)
	if err := writeOutputs(rs, o.out); err != nil {
		return err
	}
	if !rs.fullOK() {
		return fmt.Errorf("at rate 1 not every race was found in every trial")
	}
	return nil
}

// writeOutputs writes the markdown report and its plot beside it.
func writeOutputs(rs *results, out string) error {
	plot := strings.TrimSuffix(filepath.Base(out), filepath.Ext(out)) + ".svg"
	f, err := os.Create(filepath.Join(filepath.Dir(out), plot))
	if err != nil {
		return err
	}
	if err := writePlot(f, rs); err != nil {
		f.Close()
		return fmt.Errorf("writing plot: %w", err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	f, err = os.Create(out)
	if err != nil {
		return err
	}
	if err := writeReport(f, rs, plot); err != nil {
		f.Close()
		return fmt.Errorf("writing report: %w", err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	logf("wrote %s and %s", out, plot)
	return nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "eval-rate: %s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
