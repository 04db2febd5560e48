// Command driver is racegen's cost harness (make bench). It builds each
// workload's test binary uninstrumented, with go test -race, and with
// racegen in each detection mode (dynamic, static, collide) at several
// sampling rates, runs the binaries round-robin for a number of
// repetitions, and writes the wall-time and peak-RSS ratios to the
// uninstrumented build as a markdown report with SVG plots.
//
// Usage, from the repository root:
//
//	go run ./bench/driver [flags]
//
// Flags:
//
//	-reps n          repetitions of every run (default 5)
//	-workloads re    only workloads whose name matches re
//	-modes list      racegen modes to measure, comma-separated (default
//	                 dynamic,static,collide)
//	-rates list      dynamic-mode rates, comma-separated (default 0,0.001,0.01,0.03,0.1,1)
//	-static-rates l  static-mode rates (default 0.001,0.01,0.1)
//	-own-rates list  dynamic-mode rates measured with -accesspkg=./..., access
//	                 checking in the workload's own module only (default 0,0.01)
//	-fresa-rates l   dynamic-mode rates measured with -fresa, FRESA's
//	                 frequency-sensitive sampling (default 0.01,0.1)
//	-profile-rates l dynamic-mode rates measured with -fresa, each timed run
//	                 starting from a profile of earlier runs of its binary
//	                 (RACEGEN_OPTIONS=profile=PATH; default none)
//	-static-profile-rates l
//	                 static-mode rates built with -profile from a profile of
//	                 earlier runs of a FRESA build (default none)
//	-profile-runs n  untimed runs that write those profiles (default 3)
//	-profile-rate r  their sampling rate (default 0.1)
//	-collide-rates l collide-mode rates (default 0.01; a collide build that
//	                 samples a hot site waits at every execution of it and
//	                 can run into -timeout)
//	-seed n          racegen -seed of every static and collide build (default 1)
//	-race=false      leave out go test -race
//	-timeout d       limit for one run (default 90s); a run that reaches it
//	                 is recorded as at least the limit and not repeated
//	-racegen path    racegen command to use (default: built from this repository)
//	-work dir        scratch directory for module copies, binaries and logs
//	-out file        markdown report (default docs/bench.md, or bench.md in
//	                 the -work directory when -workloads picks a subset, so
//	                 that a partial run does not replace the full report);
//	                 its plots go beside it as NAME-time.svg and NAME-rss.svg
//	-report file     write the report from a saved results.json, measuring nothing
//	-detect files    results files (comma-separated) of bench/evalrate's modes
//	                 comparison or of bench/fresa, whose races found to put
//	                 beside the costs in the -budget report
//	-budget file     markdown report of distinct races found against slowdown
//	                 per mode and rate (needs -detect); its plot goes beside it
//	                 as NAME.svg
//	-budget-limit x  the slowdown a mode's rate must stay within in the -budget
//	                 report (default 1.05)
//
// Proxy modules are copied out of the module cache into the scratch
// directory, so that each is the main module racegen instruments; nothing
// third-party is written into the repository. A racegen rate that racegen
// rejects is recorded as n/a.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/racegen/racegen/bench/internal/flaglist"
	"github.com/racegen/racegen/bench/internal/runinfo"
)

func main() {
	if err := mainErr(); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

// options are the driver's flags.
type options struct {
	reps       int
	workloads  string
	modes      string
	rates      string  // dynamic mode
	static     string  // static mode's rates
	collide    string  // collide mode's rates
	access     string  // dynamic mode's rates with -accesspkg=./...
	fresa      string  // dynamic mode's rates with -fresa
	profile    string  // dynamic mode's rates with -fresa, from a profile
	staticProf string  // static mode's rates built from a profile
	profRuns   int     // runs that write that profile
	profRate   float64 // their sampling rate
	seed       int64
	race       bool
	timeout    time.Duration
	racegenBin string
	work       string
	out        string
	report     string
	detect     string // bench/evalrate results files, comma-separated
	budget     string // the budget report, written if detect is set
	limit      float64
}

func mainErr() error {
	var o options
	flag.IntVar(&o.reps, "reps", 5, "repetitions of every run")
	flag.StringVar(&o.workloads, "workloads", "", "only workloads whose name matches this `regexp`")
	flag.StringVar(&o.modes, "modes", strings.Join(allModes, ","), "racegen detection modes to measure, comma-separated")
	flag.StringVar(&o.rates, "rates", "0,0.001,0.01,0.03,0.1,1", "dynamic-mode sampling rates, comma-separated")
	flag.StringVar(&o.static, "static-rates", "0.001,0.01,0.1", "static-mode sampling rates, comma-separated")
	flag.StringVar(&o.collide, "collide-rates", "0.01", "collide-mode sampling rates, comma-separated")
	flag.StringVar(&o.access, "own-rates", "0,0.01", "dynamic-mode rates to measure with access checking narrowed to the workload's own module (-accesspkg=./...), comma-separated")
	flag.StringVar(&o.fresa, "fresa-rates", "0.01,0.1", "dynamic-mode rates to measure with FRESA's frequency-sensitive sampling (-fresa), comma-separated")
	flag.StringVar(&o.profile, "profile-rates", "", "dynamic-mode rates to measure with FRESA started from a profile of earlier runs, comma-separated")
	flag.StringVar(&o.staticProf, "static-profile-rates", "", "static-mode rates to build with -profile from a profile of earlier runs, comma-separated")
	flag.IntVar(&o.profRuns, "profile-runs", 3, "untimed runs that write the profile of -profile-rates and -static-profile-rates")
	flag.Float64Var(&o.profRate, "profile-rate", 0.1, "sampling `rate` of the runs that write the profile")
	flag.Int64Var(&o.seed, "seed", 1, "racegen -seed of the static and collide builds")
	flag.BoolVar(&o.race, "race", true, "measure go test -race")
	flag.DurationVar(&o.timeout, "timeout", 90*time.Second, "limit for one run")
	flag.StringVar(&o.racegenBin, "racegen", "", "racegen `command` (default: built from this repository)")
	flag.StringVar(&o.work, "work", filepath.Join(os.TempDir(), "racegen-bench"), "scratch `dir`ectory")
	flag.StringVar(&o.out, "out", "docs/bench.md", "markdown report `file`")
	flag.StringVar(&o.report, "report", "", "write the report from this saved results `file` only")
	flag.StringVar(&o.detect, "detect", "", "bench/evalrate or bench/fresa results `files` (comma-separated) to put beside the costs in the -budget report")
	flag.StringVar(&o.budget, "budget", "docs/budget.md", "markdown `file` of races found against slowdown, written when -detect is given")
	flag.Float64Var(&o.limit, "budget-limit", defaultBudget, "`slowdown` a mode's rate must stay within in the -budget report")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if o.workloads != "" && o.report == "" && !flagSet("out") {
		o.out = filepath.Join(o.work, "bench.md")
	}
	if o.limit < 1 || math.IsNaN(o.limit) {
		return fmt.Errorf("-budget-limit %g: want a slowdown of at least 1", o.limit)
	}
	// Read the detection results first, so that a wrong path fails before
	// an hour of measuring.
	var ds []detection
	if o.detect != "" {
		var err error
		if ds, err = loadDetections(strings.Split(o.detect, ",")); err != nil {
			return fmt.Errorf("-detect: %w", err)
		}
	}
	var rs *results
	if o.report != "" {
		rs = new(results)
		if err := runinfo.LoadJSON(o.report, rs); err != nil {
			return err
		}
		recountBenchmarks(rs, filepath.Join(filepath.Dir(o.report), "logs"))
	} else {
		var err error
		if rs, err = measureAll(&o); err != nil {
			return err
		}
	}
	if err := writeOutputs(rs, o.out); err != nil {
		return err
	}
	if ds != nil {
		return writeBudgetOutputs(rs, ds, o.budget, o.limit)
	}
	return nil
}

// flagSet reports whether the command line set the flag name.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// measureAll builds and runs everything o asks for.
func measureAll(o *options) (*results, error) {
	if o.reps < 1 {
		return nil, fmt.Errorf("-reps=%d: want at least 1", o.reps)
	}
	re, err := regexp.Compile(o.workloads)
	if err != nil {
		return nil, fmt.Errorf("-workloads: %w", err)
	}
	mrs, err := o.modeRates()
	if err != nil {
		return nil, err
	}
	repo, err := runinfo.RepoRoot()
	if err != nil {
		return nil, err
	}
	work, err := filepath.Abs(o.work)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(work, "logs"), 0o755); err != nil {
		return nil, fmt.Errorf("creating scratch directory: %w", err)
	}
	if o.racegenBin == "" {
		logf("building racegen from %s", repo)
	}
	rg, err := runinfo.Racegen(repo, work, o.racegenBin)
	if err != nil {
		return nil, err
	}
	ownRates, err := parseRates(o.access)
	if err != nil {
		return nil, fmt.Errorf("-own-rates: %w", err)
	}
	fresaRates, err := parseRates(o.fresa)
	if err != nil {
		return nil, fmt.Errorf("-fresa-rates: %w", err)
	}
	profileRates, err := parseRates(o.profile)
	if err != nil {
		return nil, fmt.Errorf("-profile-rates: %w", err)
	}
	staticProfRates, err := parseRates(o.staticProf)
	if err != nil {
		return nil, fmt.Errorf("-static-profile-rates: %w", err)
	}
	if len(profileRates)+len(staticProfRates) > 0 && (o.profRuns < 1 || !(o.profRate > 0 && o.profRate <= 1)) {
		return nil, fmt.Errorf("-profile-runs=%d -profile-rate=%g: want at least one run at a rate in (0, 1]", o.profRuns, o.profRate)
	}
	rs := &results{
		Command:   runinfo.CommandLine("./bench/driver"),
		Date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Machine:   runinfo.Machine(),
		GoVersion: runinfo.GoVersion(),
		Racegen:   runinfo.RacegenState(repo, o.racegenBin),
		Reps:      o.reps,
		Timeout:   o.timeout.Seconds(),
		Configs:   configsFor(o.race, mrs, ownRates, fresaRates, profileRates, staticProfRates, o.seed),
	}
	if len(profileRates)+len(staticProfRates) > 0 {
		rs.Profile = &profileRun{Runs: o.profRuns, Rate: o.profRate}
	}
	for _, w := range workloads {
		if re.MatchString(w.Name) {
			rs.Workloads = append(rs.Workloads, w)
		}
	}
	if len(rs.Workloads) == 0 {
		return nil, fmt.Errorf("-workloads=%q matches no workload", o.workloads)
	}

	// Build every binary first, so that runs are not disturbed by builds.
	var targets [][]target // [workload][config]
	for i := range rs.Workloads {
		w := &rs.Workloads[i]
		mdir, err := moduleDir(w, repo, work)
		if err == nil && !w.InRepo() {
			if v := raisedFrom(mdir); v != "" {
				w.Note = fmt.Sprintf("go directive raised from %s to %s in the copy", v, minGo)
			}
		}
		var row []target
		for _, c := range rs.Configs {
			t := target{w: w, c: c, cel: &cell{Workload: w.Name, Config: c.Name}, env: runEnv(c)}
			rs.Cells = append(rs.Cells, t.cel)
			if err != nil {
				t.cel.NA = "module not prepared: " + firstLine(err.Error())
				logf("%s: %v", w.Name, err)
				row = append(row, t)
				continue
			}
			t.dir = filepath.Join(mdir, w.Pkg)
			t.bin = filepath.Join(work, "bin", w.Name, c.Name+".test")
			t.mdir = mdir
			os.Remove(t.bin)
			if !c.buildsFromProfile() {
				// Those are built once their profile is made.
				t.build(rg, "")
			}
			row = append(row, t)
		}
		targets = append(targets, row)
	}
	if rs.Profile != nil {
		for _, row := range targets {
			profileTargets(row, *rs.Profile, work, rg, o.timeout)
		}
	}

	// Run round-robin: every repetition visits every workload, and within
	// a workload every configuration, in an order rotated per repetition.
	for rep := range o.reps {
		for _, row := range targets {
			for k := range row {
				t := row[(k+rep)%len(row)]
				if t.cel.NA != "" || timedOut(t.cel) {
					continue
				}
				logPath := filepath.Join(work, "logs", fmt.Sprintf("%s.%s.%d.txt", t.w.Name, t.c.Name, rep))
				r, err := measure(t.w, t.bin, t.dir, t.env, logPath, o.timeout)
				if err != nil {
					return nil, fmt.Errorf("%s %s: %w", t.w.Name, t.c.Name, err)
				}
				r.Rep = rep
				t.cel.Runs = append(t.cel.Runs, r)
				logf("rep %d %-16s %-12s %7.2fs %7.1f MiB %s", rep, t.w.Name, t.c.Name, r.Wall, float64(r.RSS)/(1<<20), r.Status)
				if r.Status == statusFail {
					logf("  see %s", logPath)
				}
			}
		}
		rs.Reps = rep + 1 // what the saved results hold so far
		if err := runinfo.SaveJSON(filepath.Join(work, "results.json"), rs); err != nil {
			return nil, err
		}
	}
	logf("results saved in %s", filepath.Join(work, "results.json"))
	return rs, nil
}

// A target is one workload's test binary for one configuration, and
// where its measurements go.
type target struct {
	w    *workload
	c    config
	cel  *cell
	mdir string   // the workload's module root, where it is built
	dir  string   // package directory, where the binary runs
	bin  string   // the test binary
	env  []string // the runs' environment
}

// build builds t's binary with racegen command rg, from the profile prof
// if t's configuration builds from one, and records a failure as t's
// cell's n/a.
func (t *target) build(rg, prof string) {
	logf("build %s %s", t.w.Name, t.c.Name)
	err := buildTest(t.w, t.c, t.mdir, t.bin, rg, prof)
	if err == nil {
		return
	}
	var be *buildError
	if errors.As(err, &be) && be.Rejected {
		t.cel.NA = "rejected by racegen: " + be.Msg
	} else {
		t.cel.NA = "build failed: " + firstLine(err.Error())
	}
	logf("  n/a: %v", err)
}

// modeRates returns the modes o selects, each with its rates.
func (o *options) modeRates() ([]modeRates, error) {
	modes, err := flaglist.Choices(o.modes, allModes)
	if err != nil {
		return nil, fmt.Errorf("-modes: %w", err)
	}
	var mrs []modeRates
	for _, f := range []struct{ mode, flag, list string }{
		{modeDynamic, "-rates", o.rates},
		{modeStatic, "-static-rates", o.static},
		{modeCollide, "-collide-rates", o.collide},
	} {
		rates, err := parseRates(f.list)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.flag, err)
		}
		if slices.Contains(modes, f.mode) && len(rates) > 0 {
			mrs = append(mrs, modeRates{f.mode, rates})
		}
	}
	return mrs, nil
}

// timedOut reports whether one of c's runs reached the time limit; the
// harness does not repeat such runs.
func timedOut(c *cell) bool {
	for _, r := range c.Runs {
		if r.Status == statusTimeout {
			return true
		}
	}
	return false
}

// writeOutputs writes the markdown report to out and its two plots
// beside it.
func writeOutputs(rs *results, out string) error {
	stem := strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))
	dir := filepath.Dir(out)
	plots := []struct {
		file, title, ylabel string
		f                   func(run) float64
	}{
		{stem + "-time.svg", "Slowdown against sampling rate", "wall time / uninstrumented", wallOf},
		{stem + "-rss.svg", "Peak memory against sampling rate", "peak RSS / uninstrumented", rssOf},
	}
	var names []string
	for _, p := range plots {
		if err := writeFile(filepath.Join(dir, p.file), func(f *os.File) error {
			return writePlot(f, rs, p.f, p.title, p.ylabel)
		}); err != nil {
			return err
		}
		names = append(names, p.file)
	}
	if err := writeFile(out, func(f *os.File) error { return writeReport(f, rs, names) }); err != nil {
		return err
	}
	logf("wrote %s and %s", out, strings.Join(names, ", "))
	return nil
}

// writeBudgetOutputs writes the budget report to out and its plot beside
// it.
func writeBudgetOutputs(rs *results, ds []detection, out string, limit float64) error {
	ps := budgetPoints(rs, ds)
	plot := strings.TrimSuffix(filepath.Base(out), filepath.Ext(out)) + ".svg"
	if err := writeFile(filepath.Join(filepath.Dir(out), plot), func(f *os.File) error {
		return writeBudgetPlot(f, ps, limit)
	}); err != nil {
		return err
	}
	if err := writeFile(out, func(f *os.File) error { return writeBudget(f, rs, ds, ps, limit, plot) }); err != nil {
		return err
	}
	logf("wrote %s and %s", out, plot)
	return nil
}

func writeFile(path string, write func(*os.File) error) error {
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
	fmt.Fprintf(os.Stderr, "bench: %s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
