// Command evalrate is racegen's proportionality harness (make
// eval-rate). It builds the evaluation program testdata/evalrace, whose
// ten races occur in every run, with racegen at each sampling rate, runs
// it many times per rate, and reports how often each race was detected
// against the ideal, the rate itself, with the band [r/2, 2r] that
// racegen's dynamic sampling promises (Pacer's Figures 3-5). At rate 1
// every race must be found in every trial.
//
// It then compares racegen's detection modes (dynamic, static, collide)
// side by side on testdata/evalrace and testdata/evalrace/many: each
// program runs the same number of times per mode at one rate, and the
// report counts the distinct races found over all runs and how often
// each was found (CRSampler's Table 1). Static and collide runs are
// separate builds, each with its own -seed.
//
// Usage, from the repository root:
//
//	go run ./bench/evalrate [flags]
//
// Flags:
//
//	-rates list     sampling rates, comma-separated (default 0.01,0.03,0.1,0.25)
//	-trials n       trials per rate (default: enough to expect about 100
//	                detections per race, at least 400)
//	-full n         trials at rate 1 (default 200)
//	-parallel n     trials run at once (default 2)
//	-racegen path   racegen command (default: built from this repository)
//	-work dir       scratch directory
//	-out file       markdown report (default docs/eval-rate.md); the plot
//	                goes beside it as NAME.svg
//	-report file    write the report from a saved results.json only
//	-sweep=false    leave out the dynamic-mode rate sweep and its rate-1 check
//	-modes list     modes to compare, comma-separated (default
//	                dynamic,static,collide; empty: no comparison); also
//	                static+profile and collide+profile, static builds
//	                with -profile from a profile of earlier runs of
//	                the program
//	-mode-rate r    the comparison's sampling rate (default 0.01)
//	-mode-runs n    runs per mode and program (default 100)
//	-mode-full n    runs per mode and program at rate 1 (default 10; none
//	                in the +profile modes, which sample every site there)
//	-profile-runs n runs of a FRESA build that write the profile of the
//	                static+profile and collide+profile modes (default 3)
//	-profile-rate r their sampling rate (default 0.1)
//	-programs list  evaluation programs to compare the modes on, directories
//	                relative to the repository root (default
//	                testdata/evalrace,testdata/evalrace/many)
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
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/racegen/racegen/bench/internal/runinfo"
)

func main() {
	if err := mainErr(); err != nil {
		fmt.Fprintf(os.Stderr, "eval-rate: %v\n", err)
		os.Exit(1)
	}
}

type options struct {
	sweep      bool
	modes      string
	modeRate   float64
	modeRuns   int
	modeFull   int
	profRuns   int
	profRate   float64
	programs   string
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
	flag.BoolVar(&o.sweep, "sweep", true, "run the dynamic-mode rate sweep")
	flag.StringVar(&o.modes, "modes", strings.Join(allModes, ","), "detection modes to compare, comma-separated")
	flag.Float64Var(&o.modeRate, "mode-rate", 0.01, "sampling rate of the modes comparison")
	flag.IntVar(&o.modeRuns, "mode-runs", 100, "runs per mode and program in the modes comparison")
	flag.IntVar(&o.modeFull, "mode-full", 10, "runs per mode and program at rate 1 in the modes comparison")
	flag.IntVar(&o.profRuns, "profile-runs", 3, "runs that write the profile of the +profile modes")
	flag.Float64Var(&o.profRate, "profile-rate", 0.1, "sampling `rate` of the runs that write the profile")
	flag.StringVar(&o.programs, "programs", "testdata/evalrace,testdata/evalrace/many", "evaluation programs of the modes comparison, comma-separated")
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
	if rs.Full.Trials > 0 || rs.Full.NA != "" {
		printSummary(os.Stdout, rs)
	}
	printModes(os.Stdout, rs)
	if err := writeOutputs(rs, o.out); err != nil {
		return err
	}
	if (rs.Full.Trials > 0 || rs.Full.NA != "") && !rs.fullOK() {
		return fmt.Errorf("at rate 1 not every race was found in every trial")
	}
	return nil
}

// writeOutputs writes the markdown report and, if rs holds the rate
// sweep, its plot beside it.
func writeOutputs(rs *results, out string) error {
	plot := ""
	if rs.hasSweep() {
		plot = strings.TrimSuffix(filepath.Base(out), filepath.Ext(out)) + ".svg"
		if err := writeFile(filepath.Join(filepath.Dir(out), plot), func(w io.Writer) error { return writePlot(w, rs) }); err != nil {
			return err
		}
	}
	if err := writeFile(out, func(w io.Writer) error { return writeReport(w, rs, plot) }); err != nil {
		return err
	}
	logf("wrote %s %s", out, plot)
	return nil
}

// writeFile creates path and fills it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "eval-rate: %s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
