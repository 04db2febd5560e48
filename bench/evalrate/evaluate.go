package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/racegen/racegen/bench/internal/flaglist"
	"github.com/racegen/racegen/bench/internal/runinfo"
)

// results is what one harness run measured, saved as JSON.
type results struct {
	Command   string       `json:"command"`
	Date      string       `json:"date"`
	Machine   string       `json:"machine"`
	GoVersion string       `json:"go_version"`
	Racegen   string       `json:"racegen"`
	Races     []string     `json:"races"`
	Rates     []rateResult `json:"rates"`
	Full      rateResult   `json:"full"` // rate 1

	// The modes comparison.
	ModeRate float64         `json:"mode_rate,omitempty"`
	ModeRuns int             `json:"mode_runs,omitempty"`
	Programs []programResult `json:"programs,omitempty"`
}

// A rateResult is the trials at one rate.
type rateResult struct {
	Rate       float64        `json:"rate"`
	NA         string         `json:"na,omitempty"`
	How        string         `json:"how,omitempty"` // how the rate was set
	Options    string         `json:"options,omitempty"`
	Trials     int            `json:"trials"`
	Found      map[string]int `json:"found"`      // trials in which each race was reported
	Unexpected []string       `json:"unexpected"` // reports of no marked race, with counts
	Failed     int            `json:"failed"`     // trials that did not exit 0 or 66
	Identical  bool           `json:"identical"`  // every trial found the same set of races
}

// fullOK reports whether the rate-1 trials found every race every time.
func (rs *results) fullOK() bool {
	f := rs.Full
	if f.NA != "" || f.Trials == 0 || f.Failed > 0 || len(f.Unexpected) > 0 {
		return false
	}
	for _, r := range rs.Races {
		if f.Found[r] != f.Trials {
			return false
		}
	}
	return true
}

// evaluate builds the evaluation program at each rate and runs its
// trials.
func evaluate(o *options) (*results, error) {
	rates, err := parseRates(o.rates)
	if err != nil {
		return nil, fmt.Errorf("-rates: %w", err)
	}
	if o.parallel < 1 {
		return nil, fmt.Errorf("-parallel=%d: want at least 1", o.parallel)
	}
	modes, err := flaglist.Choices(o.modes, knownModes)
	if err != nil {
		return nil, fmt.Errorf("-modes: %w", err)
	}
	if len(modes) > 0 {
		if !(o.modeRate > 0 && o.modeRate <= 1) {
			return nil, fmt.Errorf("-mode-rate=%g: want a number above 0, at most 1", o.modeRate)
		}
		if o.modeRuns < 1 || o.modeFull < 0 {
			return nil, fmt.Errorf("-mode-runs=%d -mode-full=%d: want at least 1 and at least 0", o.modeRuns, o.modeFull)
		}
		if o.profRuns < 1 || !(o.profRate > 0 && o.profRate <= 1) {
			return nil, fmt.Errorf("-profile-runs=%d -profile-rate=%g: want at least one run at a rate in (0, 1]", o.profRuns, o.profRate)
		}
	}
	if !o.sweep && len(modes) == 0 {
		return nil, fmt.Errorf("-sweep=false and no -modes: nothing to do")
	}
	repo, err := runinfo.RepoRoot()
	if err != nil {
		return nil, err
	}
	progDir := filepath.Join(repo, "testdata", "evalrace")
	lines, names, err := loadProgram(progDir)
	if err != nil {
		return nil, err
	}
	work, err := filepath.Abs(o.work)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, fmt.Errorf("creating scratch directory: %w", err)
	}
	if o.racegenBin == "" {
		logf("building racegen from %s", repo)
	}
	rg, err := runinfo.Racegen(repo, work, o.racegenBin)
	if err != nil {
		return nil, err
	}
	rs := &results{
		Command:   runinfo.CommandLine("./bench/evalrate"),
		Date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Machine:   runinfo.Machine(),
		GoVersion: runinfo.GoVersion(),
		Racegen:   runinfo.RacegenState(repo, o.racegenBin),
		Races:     names,
	}
	if o.sweep {
		if err := sweep(o, rs, rg, repo, work, progDir, lines, names, rates); err != nil {
			return nil, err
		}
	}
	if len(modes) > 0 {
		rs.ModeRate, rs.ModeRuns = o.modeRate, o.modeRuns
		for p := range strings.SplitSeq(o.programs, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			pr, err := compareModes(o, rg, repo, work, p, modes, o.modeRate)
			if err != nil {
				return nil, fmt.Errorf("modes comparison on %s: %w", p, err)
			}
			rs.Programs = append(rs.Programs, pr)
			if err := runinfo.SaveJSON(filepath.Join(work, "results.json"), rs); err != nil {
				return nil, err
			}
		}
	}
	return rs, nil
}

// sweep runs the dynamic-mode trials: rate 1, then each rate.
func sweep(o *options, rs *results, rg, repo, work, progDir string, lines raceLines, names []string, rates []float64) error {
	full := filepath.Join(work, "evalrace-rate1")
	if err := buildAt(rg, repo, 1, full); err != nil {
		return fmt.Errorf("building the evaluation program at rate 1: %w", err)
	}
	knowsRate := knowsOption(full, "rate=1")
	knowsSeed := knowsOption(full, "seed=1")
	logf("runtime options: rate %v, seed %v", knowsRate, knowsSeed)
	tr := trialRunner{lines: lines, file: "main.go", dir: progDir, seed: knowsSeed, parallel: o.parallel}

	rs.Full = tr.run(full, 1, o.full, knowsRate, "built with -rate=1")
	logf("rate 1: %d trials, %s", rs.Full.Trials, foundString(rs.Full, names))
	for _, r := range rates {
		n := o.trials
		if n == 0 {
			n = autoTrials(r)
		}
		bin := filepath.Join(work, "evalrace-rate"+fmtRate(r))
		var res rateResult
		switch err := buildAt(rg, repo, r, bin); {
		case err == nil:
			res = tr.run(bin, r, n, knowsRate, "built with -rate="+fmtRate(r))
		case knowsRate:
			res = tr.run(full, r, n, true, "built with -rate=1, rate="+fmtRate(r)+" in RACEGEN_OPTIONS")
		default:
			res = rateResult{Rate: r, NA: firstLine(err.Error())}
		}
		if res.NA != "" {
			logf("rate %g: n/a: %s", r, res.NA)
		} else {
			logf("rate %g: %d trials, %s", r, res.Trials, foundString(res, names))
		}
		rs.Rates = append(rs.Rates, res)
		if err := runinfo.SaveJSON(filepath.Join(work, "results.json"), rs); err != nil {
			return err
		}
	}
	return nil
}

// buildAt builds the evaluation program with racegen at rate r.
func buildAt(rg, repo string, r float64, out string) error {
	os.Remove(out)
	_, err := runinfo.Run(repo, nil, rg, "-rate="+fmtRate(r), "build", "-o", out, "./testdata/evalrace")
	return err
}

// knowsOption reports whether the program bin accepts the
// RACEGEN_OPTIONS setting opt (name=value) without complaint.
func knowsOption(bin, opt string) bool {
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "RACEGEN_OPTIONS="+opt+" format=json")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run() // the program exits 66: it has races
	name, _, _ := strings.Cut(opt, "=")
	return !optionUnsupported(stderr.Bytes(), name)
}

// trialRunner runs trials of the evaluation program.
type trialRunner struct {
	lines    raceLines
	file     string
	dir      string
	seed     bool // pass seed=N
	parallel int
}

// run runs bin n times at rate r and counts what was found. setRate says
// whether to put rate=r in RACEGEN_OPTIONS.
func (t *trialRunner) run(bin string, r float64, n int, setRate bool, how string) rateResult {
	opts := "format=json"
	if setRate {
		opts += " rate=" + fmtRate(r)
	}
	res := rateResult{Rate: r, How: how, Options: opts, Trials: n, Found: map[string]int{}}
	if t.seed {
		res.Options += " seed=N (N = trial number + 1)"
	}
	var mu sync.Mutex
	unexpected := map[string]int{}
	sets := map[string]bool{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range t.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				o := opts
				if t.seed {
					o += " seed=" + strconv.Itoa(i+1)
				}
				v, err := t.trial(bin, o)
				mu.Lock()
				if err != nil {
					res.Failed++
					if res.Failed <= 3 {
						logf("trial %d at rate %g: %v", i, r, err)
					}
				} else {
					var key []string
					for name := range v.Found {
						res.Found[name]++
						key = append(key, name)
					}
					sets[strings.Join(sortStrings(key), ",")] = true
					for _, u := range v.Unexpected {
						unexpected[u]++
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	res.Identical = n > 1 && len(sets) == 1
	for u, k := range unexpected {
		res.Unexpected = append(res.Unexpected, fmt.Sprintf("%dx %s", k, u))
	}
	sortStrings(res.Unexpected)
	return res
}

// mapCrash starts the message with which Go's runtime ends a program
// whose map accesses overlap in time. The evaluation programs race on
// maps on purpose, and on a busy machine the two accesses of such a race,
// meant to be milliseconds apart, can overlap: the run says nothing about
// the detector then, and is made again, up to mapRetries times.
const (
	mapCrash   = "fatal error: concurrent map"
	mapRetries = 3
)

// trial runs bin once with RACEGEN_OPTIONS=opts and reads its reports.
func (t *trialRunner) trial(bin, opts string) (verdict, error) {
	var (
		stderr bytes.Buffer
		err    error
	)
	for try := 0; ; try++ {
		cmd := exec.Command(bin)
		cmd.Dir = t.dir
		cmd.Env = append(os.Environ(), "RACEGEN_OPTIONS="+opts)
		stderr.Reset()
		cmd.Stderr = &stderr
		err = cmd.Run()
		if err == nil || try == mapRetries || !strings.Contains(stderr.String(), mapCrash) {
			break
		}
		logf("%s: run again: Go's concurrent map check ended it (%v)", filepath.Base(bin), err)
	}
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 66) {
		return verdict{}, fmt.Errorf("%v\n%s", err, failureText(stderr.String(), 3, 5))
	}
	v, perr := parseReports(stderr.Bytes(), t.file, t.lines)
	if perr != nil {
		return v, perr
	}
	if (err == nil) != (len(v.Found)+len(v.Unexpected) == 0) {
		return v, fmt.Errorf("exit status %v disagrees with %d reports", err, len(v.Found)+len(v.Unexpected))
	}
	return v, nil
}
