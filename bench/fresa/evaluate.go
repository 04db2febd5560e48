package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/racegen/racegen/bench/internal/flaglist"
	"github.com/racegen/racegen/bench/internal/racemarks"
	"github.com/racegen/racegen/bench/internal/runinfo"
)

// The sampling modes compared.
const (
	modeUniform = "uniform"
	modeFresa   = "fresa"
	modeProfile = "fresa+profile"
)

var modes = []string{modeUniform, modeFresa, modeProfile}

// results is what a run of the harness measured.
type results struct {
	Command   string          `json:"command"`
	Date      string          `json:"date"`
	Machine   string          `json:"machine"`
	GoVersion string          `json:"go_version"`
	Racegen   string          `json:"racegen"`
	Runs      int             `json:"runs"`
	Timing    int             `json:"timing"`
	Profile   string          `json:"profile"` // how the profile was made; "" if none was
	Budgets   []float64       `json:"budgets"`
	Programs  []programResult `json:"programs"`
}

// A programResult is one evaluation program's measurements.
type programResult struct {
	Dir   string       `json:"dir"`
	Races []string     `json:"races"`
	Plain float64      `json:"plain"` // median seconds of the uninstrumented build
	Cells []cellResult `json:"cells"`
}

// A cellResult is one mode at one rate on one program.
type cellResult struct {
	Mode    string         `json:"mode"`
	Rate    float64        `json:"rate"`
	Seconds float64        `json:"seconds"` // median of the timed runs
	Runs    int            `json:"runs"`
	Found   map[string]int `json:"found"` // runs in which each race was reported
	Failed  int            `json:"failed"`
	// Unexpected counts reports of no marked race: a false report, or
	// a race the program does not mark.
	Unexpected []string `json:"unexpected,omitempty"`
}

// overhead returns the cell's median time over the uninstrumented one.
func (c *cellResult) overhead(plain float64) float64 { return c.Seconds / plain }

// distinct returns the number of races found at least once.
func (c *cellResult) distinct() int {
	n := 0
	for _, k := range c.Found {
		if k > 0 {
			n++
		}
	}
	return n
}

// perRun returns the mean fraction of the program's races found per run.
func (c *cellResult) perRun(races int) float64 {
	if c.Runs == 0 || races == 0 {
		return 0
	}
	sum := 0
	for _, k := range c.Found {
		sum += k
	}
	return float64(sum) / float64(c.Runs*races)
}

// evaluate runs the harness.
func evaluate(o *options) (*results, error) {
	rates, err := parseFloats(o.rates)
	if err != nil {
		return nil, fmt.Errorf("-rates: %w", err)
	}
	budgets, err := parseFloats(o.budgets)
	if err != nil {
		return nil, fmt.Errorf("-budgets: %w", err)
	}
	ms, err := flaglist.Choices(o.modes, modes)
	if err != nil {
		return nil, fmt.Errorf("-modes: %w", err)
	}
	if len(ms) == 0 || len(rates) == 0 {
		return nil, fmt.Errorf("-modes and -rates want at least one each")
	}
	if o.runs < 1 || o.timing < 1 || o.profileRuns < 1 || o.parallel < 1 {
		return nil, fmt.Errorf("-runs, -timing, -profile-runs and -parallel want at least 1")
	}
	repo, err := runinfo.RepoRoot()
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
		Command:   runinfo.CommandLine("./bench/fresa"),
		Date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Machine:   runinfo.Machine(),
		GoVersion: runinfo.GoVersion(),
		Racegen:   runinfo.RacegenState(repo, o.racegenBin),
		Runs:      o.runs,
		Timing:    o.timing,
		Budgets:   budgets,
	}
	if slices.Contains(ms, modeProfile) {
		rs.Profile = fmt.Sprintf("the sum of %d runs of racegen -fresa -rate=%g with RACEGEN_OPTIONS=profile_out=..., merged by racegen merge -profiles", o.profileRuns, o.profileRate)
	}
	for dir := range strings.SplitSeq(o.programs, ",") {
		h := &harness{o: o, rg: rg, repo: repo, work: filepath.Join(work, strings.ReplaceAll(dir, "/", "-")), dir: dir}
		pr, err := h.program(ms, rates)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		rs.Programs = append(rs.Programs, pr)
	}
	if err := runinfo.SaveJSON(filepath.Join(work, "results.json"), rs); err != nil {
		return nil, err
	}
	return rs, nil
}

// A harness measures one program.
type harness struct {
	o             *options
	rg, repo, dir string
	work          string
	lines         racemarks.Lines
}

// program measures the program in every mode of ms at every rate.
func (h *harness) program(ms []string, rates []float64) (programResult, error) {
	lines, names, err := racemarks.LoadProgram(filepath.Join(h.repo, h.dir))
	if err != nil {
		return programResult{}, err
	}
	h.lines = lines
	pr := programResult{Dir: h.dir, Races: names}
	if err := os.MkdirAll(h.work, 0o755); err != nil {
		return pr, err
	}
	plain := filepath.Join(h.work, "plain")
	if _, err := runinfo.Run(h.repo, nil, "go", "build", "-o", plain, "./"+h.dir); err != nil {
		return pr, err
	}
	if pr.Plain, err = h.time(plain, nil); err != nil {
		return pr, err
	}
	logf("%s: uninstrumented %.2fs", h.dir, pr.Plain)
	var prof string
	if slices.Contains(ms, modeProfile) {
		if prof, err = h.profile(); err != nil {
			return pr, err
		}
	}
	for _, mode := range ms {
		for _, r := range rates {
			c, err := h.cell(mode, r, prof)
			if err != nil {
				return pr, err
			}
			logf("%s %s rate %g: %.2fx, %d of %d races, %d failed", h.dir, mode, r, c.overhead(pr.Plain), c.distinct(), len(names), c.Failed)
			pr.Cells = append(pr.Cells, c)
		}
	}
	return pr, nil
}

// profile runs a FRESA build with profile_out and merges what the runs
// wrote, returning the merged profile's path.
func (h *harness) profile() (string, error) {
	bin := filepath.Join(h.work, "profiling")
	if err := h.build(bin, "-fresa", "-rate="+fmtRate(h.o.profileRate)); err != nil {
		return "", err
	}
	dir := filepath.Join(h.work, "profiles")
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for range h.o.profileRuns {
		if _, _, err := h.run(bin, "profile_out="+filepath.Join(dir, "run")); err != nil {
			return "", err
		}
	}
	out, err := runinfo.Run(h.repo, nil, h.rg, "merge", "-profiles", dir)
	if err != nil {
		return "", err
	}
	prof := filepath.Join(h.work, "merged.prof")
	return prof, os.WriteFile(prof, out, 0o666)
}

// cell measures one mode at one rate.
func (h *harness) cell(mode string, r float64, prof string) (cellResult, error) {
	c := cellResult{Mode: mode, Rate: r, Found: map[string]int{}}
	bin := filepath.Join(h.work, strings.ReplaceAll(mode, "+", "-")+"-"+fmtRate(r))
	args := []string{"-rate=" + fmtRate(r)}
	switch mode {
	case modeFresa:
		args = append(args, "-fresa")
	case modeProfile:
		args = append(args, "-fresa", "-profile="+prof)
	}
	if err := h.build(bin, args...); err != nil {
		return c, err
	}
	var err error
	if c.Seconds, err = h.time(bin, []string{"RACEGEN_OPTIONS=format=json"}); err != nil {
		return c, err
	}
	var mu sync.Mutex
	unexpected := map[string]int{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range h.o.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				v, _, err := h.run(bin, "format=json")
				mu.Lock()
				c.Runs++
				if err != nil {
					c.Failed++
					if c.Failed <= 3 {
						logf("%s %s rate %g: %v", h.dir, mode, r, err)
					}
				}
				for name := range v.Found {
					c.Found[name]++
				}
				for _, u := range v.Unexpected {
					unexpected[u]++
				}
				mu.Unlock()
			}
		}()
	}
	for i := range h.o.runs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for u, k := range unexpected {
		c.Unexpected = append(c.Unexpected, fmt.Sprintf("%dx %s", k, u))
	}
	slices.Sort(c.Unexpected)
	return c, nil
}

// build builds the program into out with racegen and args.
func (h *harness) build(out string, args ...string) error {
	args = append(args, "-o", filepath.Join(h.work, "rg"), "build", "-o", out, "./"+h.dir)
	_, err := runinfo.Run(h.repo, nil, h.rg, args...)
	return err
}

// time runs bin h.o.timing times, one at a time, and returns the median
// wall time in seconds.
func (h *harness) time(bin string, env []string) (float64, error) {
	var ts []float64
	for range h.o.timing {
		cmd := exec.Command(bin)
		cmd.Dir = filepath.Join(h.repo, h.dir)
		cmd.Env = append(os.Environ(), env...)
		start := time.Now()
		err := cmd.Run()
		ts = append(ts, time.Since(start).Seconds())
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 66) {
			return 0, fmt.Errorf("%s: %v", bin, err)
		}
	}
	slices.Sort(ts)
	return ts[len(ts)/2], nil
}

// run runs bin once with RACEGEN_OPTIONS=opts and returns the verdict of
// its reports.
func (h *harness) run(bin, opts string) (racemarks.Verdict, []byte, error) {
	cmd := exec.Command(bin)
	cmd.Dir = filepath.Join(h.repo, h.dir)
	cmd.Env = append(os.Environ(), "RACEGEN_OPTIONS="+opts)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 66) {
		return racemarks.Verdict{}, stderr.Bytes(), fmt.Errorf("%s: %v\n%s", filepath.Base(bin), err, runinfo.LastLines(stderr.String(), 5))
	}
	v, perr := racemarks.ParseReports(stderr.Bytes(), "main.go", h.lines)
	return v, stderr.Bytes(), perr
}

func fmtRate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }
