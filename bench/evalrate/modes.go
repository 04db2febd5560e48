package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/racegen/racegen/bench/internal/runinfo"
	"github.com/racegen/racegen/bench/internal/stats"
)

// The modes comparison runs each evaluation program the same number of
// times in each of racegen's detection modes at one rate, and counts the
// distinct races found over all runs, as CRSampler's Table 1 and Figure 7
// do. Dynamic mode (Pacer) samples at run time: one build, a different
// run-time seed per run. The static modes sample access sites at build
// time: each run is a build of its own with -seed=N, so that every run
// samples a fresh set of sites, as CRSampler does.

// racegen's detection modes, as its -mode flag names them, and the two
// static modes built from a profile (-profile): the site counts of
// earlier runs, so that the build-time choice of sites spends the rate
// on cold sites rather than hot ones (instrument/siterate.go).
const (
	modeDynamic        = "dynamic"
	modeStatic         = "static"
	modeCollide        = "collide"
	modeStaticProfile  = "static+profile"
	modeCollideProfile = "collide+profile"
)

// allModes are the modes compared by default, knownModes every mode
// -modes accepts.
var (
	allModes   = []string{modeDynamic, modeStatic, modeCollide}
	knownModes = append(allModes[:len(allModes):len(allModes)], modeStaticProfile, modeCollideProfile)
)

// racegenMode returns the -mode flag of mode, and whether its builds
// start from the program's profile.
func racegenMode(mode string) (flag string, profile bool) {
	if m, ok := strings.CutSuffix(mode, "+profile"); ok {
		return m, true
	}
	return mode, false
}

// A programResult is the modes comparison on one evaluation program.
type programResult struct {
	Dir   string       `json:"dir"` // relative to the repository root
	Races []string     `json:"races"`
	Full  []modeResult `json:"full"`  // each mode at rate 1
	Modes []modeResult `json:"modes"` // each mode at the comparison's rate
}

// A modeResult is the runs of one program in one mode at one rate.
type modeResult struct {
	Mode       string         `json:"mode"`
	Rate       float64        `json:"rate"`
	How        string         `json:"how"`
	Runs       int            `json:"runs"`
	Found      map[string]int `json:"found"`      // runs in which each race was reported
	Unexpected []string       `json:"unexpected"` // reports of no marked race, with counts
	Failed     int            `json:"failed"`     // runs whose build failed or that did not exit 0 or 66
	// Sampled counts, for the static modes, the builds that sampled a
	// site on one of a race's marked lines: without one the race cannot
	// be found in that run.
	Sampled map[string]int `json:"sampled,omitempty"`
	// SitesSampled and Sites total the sampled and all sites of the
	// static builds.
	SitesSampled int `json:"sites_sampled,omitempty"`
	Sites        int `json:"sites,omitempty"`
	// Seconds holds each completed run's wall time, `parallel` runs at
	// a time: what the mode cost, beside what it found.
	Seconds []float64 `json:"seconds,omitempty"`
}

// finds returns the races m reported, summed over its runs.
func (m modeResult) finds() int {
	n := 0
	for _, k := range m.Found {
		n += k
	}
	return n
}

// distinct returns the number of races m found at least once.
func (m modeResult) distinct() int {
	n := 0
	for _, k := range m.Found {
		if k > 0 {
			n++
		}
	}
	return n
}

// A modeRunner runs the modes comparison on one program.
type modeRunner struct {
	rg, repo, work string
	pkg            string // "./testdata/evalrace/many"
	tr             trialRunner
	seedOpt        bool // the runtime accepts seed=N

	// The profile of the +profile modes, made at its first use
	// (profileFor) by profileRuns runs of a FRESA build at profileRate.
	profileRuns int
	profileRate float64
	profile     string // its path, once made
	profileHow  string // how it was made, for the report
}

// profileFor returns the program's profile, making it first if no mode
// has used it yet: a dynamic build with -fresa at m.profileRate, run
// m.profileRuns times, each run writing its site counts (profile_out),
// summed by racegen merge -profiles. The runs are not counted: they
// stand for the earlier runs of a fleet whose profile the next builds
// start from.
func (m *modeRunner) profileFor() (string, error) {
	if m.profile != "" {
		return m.profile, nil
	}
	name := strings.ReplaceAll(strings.Trim(m.pkg, "./"), "/", "-")
	dir := filepath.Join(m.work, "profiles", name)
	if strings.ContainsAny(dir, " \t") {
		// RACEGEN_OPTIONS separates options with spaces.
		return "", fmt.Errorf("scratch directory %q has a space, which RACEGEN_OPTIONS cannot carry", dir)
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, "runs"), 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "fresa")
	if _, err := m.buildMode(modeDynamic, m.profileRate, 1, filepath.Join(m.work, "rg-0"), bin, "-fresa"); err != nil {
		return "", fmt.Errorf("profile build: %w", err)
	}
	for i := range m.profileRuns {
		if _, err := m.tr.trial(bin, "format=json profile_out="+filepath.Join(dir, "runs", "run")); err != nil {
			return "", fmt.Errorf("profile run %d: %w", i+1, err)
		}
	}
	out, err := runinfo.Run(m.repo, nil, m.rg, "merge", "-profiles", filepath.Join(dir, "runs"))
	if err != nil {
		return "", err
	}
	prof := filepath.Join(dir, "merged.prof")
	if err := os.WriteFile(prof, out, 0o644); err != nil {
		return "", err
	}
	m.profile = prof
	m.profileHow = fmt.Sprintf("the sum of %d runs of a racegen -fresa -rate=%s build with RACEGEN_OPTIONS=profile_out=..., merged by racegen merge -profiles", m.profileRuns, fmtRate(m.profileRate))
	return prof, nil
}

// buildMode builds the program with racegen -mode=mode -rate=r -seed=seed
// -v and the flags extra into out, with racegen's own files under
// scratch, and returns racegen's -v output. mode is racegen's -mode.
func (m *modeRunner) buildMode(mode string, r float64, seed int64, scratch, out string, extra ...string) (string, error) {
	os.Remove(out)
	args := append([]string{"-mode=" + mode, "-rate=" + fmtRate(r), "-seed=" + strconv.FormatInt(seed, 10), "-v"}, extra...)
	args = append(args, "-o", scratch, "build", "-o", out, m.pkg)
	cmd := exec.Command(m.rg, args...)
	cmd.Dir = m.repo
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	b, err := cmd.CombinedOutput()
	if err != nil {
		return string(b), fmt.Errorf("racegen %s: %v: %s", strings.Join(args, " "), err, runinfo.LastLines(string(b), 5))
	}
	return string(b), nil
}

// sampledRE matches racegen -v's line for one sampled site, and
// sitesRE its per-package count of sampled sites.
var (
	sampledRE = regexp.MustCompile(`^racegen: sampled (.+):(\d+):(\d+)$`)
	sitesRE   = regexp.MustCompile(`^racegen: [^ ]+: .*?(\d+) of (\d+) \([0-9.]+%\) sampled$`)
)

// sampledSites reads racegen -v output: the races of which a marked line
// of file holds a sampled site, and the package's sampled and total
// static sites.
func sampledSites(out, file string, lines raceLines) (races map[string]bool, sampled, sites int) {
	races = map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		if m := sampledRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			if filepath.Base(m[1]) == file && lines[n] != "" {
				races[lines[n]] = true
			}
			continue
		}
		if m := sitesRE.FindStringSubmatch(l); m != nil && !strings.HasPrefix(l, "racegen: 1 packages") {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			sampled += a
			sites += b
		}
	}
	return races, sampled, sites
}

// run runs n trials of the program in mode at rate r. Dynamic mode is
// built once; the static modes are built per trial with -seed=trial+1,
// and from the program's profile in the +profile modes.
func (m *modeRunner) run(mode string, r float64, n int) modeResult {
	res := modeResult{Mode: mode, Rate: r, Runs: n, Found: map[string]int{}}
	opts := "format=json"
	rgMode, fromProfile := racegenMode(mode)
	perBuild := rgMode != modeDynamic && r < 1
	var extra []string
	if fromProfile {
		prof, err := m.profileFor()
		if err != nil {
			logf("%s %s rate %g: %v", m.pkg, mode, r, err)
			res.Failed = n
			return res
		}
		extra = []string{"-profile=" + prof}
	}
	var dynBin string
	switch {
	case perBuild:
		res.How = fmt.Sprintf("a new build per run, racegen -mode=%s -rate=%s -seed=N (N = 1..%d)", rgMode, fmtRate(r), n)
		if fromProfile {
			res.How += " -profile=P, P " + m.profileHow
		}
		res.How += fmt.Sprintf("; RACEGEN_OPTIONS `%s`", opts)
		res.Sampled = map[string]int{}
	default:
		dynBin = filepath.Join(m.work, "modes", fmt.Sprintf("%s-%s-%s", strings.ReplaceAll(strings.Trim(m.pkg, "./"), "/", "-"), strings.ReplaceAll(mode, "+", "-"), fmtRate(r)))
		if _, err := m.buildMode(rgMode, r, 1, filepath.Join(m.work, "rg-0"), dynBin, extra...); err != nil {
			logf("%s %s rate %g: %v", m.pkg, mode, r, err)
			res.Failed = n
			return res
		}
		res.How = fmt.Sprintf("one build, racegen -mode=%s -rate=%s", rgMode, fmtRate(r))
		if rgMode != modeDynamic {
			res.How += " (at rate 1 every site is sampled)"
		}
		switch {
		case rgMode == modeDynamic && m.seedOpt:
			res.How += fmt.Sprintf("; RACEGEN_OPTIONS `%s seed=N` (N = 1..%d)", opts, n)
		case rgMode == modeDynamic:
			res.How += fmt.Sprintf("; RACEGEN_OPTIONS `%s` (the runtime takes no seed option; its sampling controller seeds its random source from the clock in every run)", opts)
		default:
			res.How += fmt.Sprintf("; RACEGEN_OPTIONS `%s`", opts)
		}
	}
	var mu sync.Mutex
	unexpected := map[string]int{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := range m.tr.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scratch := filepath.Join(m.work, fmt.Sprintf("rg-%d", w+1))
			bin := filepath.Join(m.work, "modes", fmt.Sprintf("worker-%d", w+1))
			for i := range jobs {
				var sampled map[string]bool
				var ns, nsites int
				b, o := dynBin, opts
				if perBuild {
					out, err := m.buildMode(rgMode, r, int64(i+1), scratch, bin, extra...)
					if err != nil {
						mu.Lock()
						res.Failed++
						logf("%s %s run %d: %v", m.pkg, mode, i, err)
						mu.Unlock()
						continue
					}
					sampled, ns, nsites = sampledSites(out, m.tr.file, m.tr.lines)
					b = bin
				} else if rgMode == modeDynamic && m.seedOpt {
					o += " seed=" + strconv.Itoa(i+1)
				}
				start := time.Now()
				v, err := m.tr.trial(b, o)
				took := time.Since(start).Seconds()
				mu.Lock()
				for name := range sampled {
					res.Sampled[name]++
				}
				res.SitesSampled += ns
				res.Sites += nsites
				if err != nil {
					res.Failed++
					if res.Failed <= 3 {
						logf("%s %s run %d: %v", m.pkg, mode, i, err)
					}
				} else {
					res.Seconds = append(res.Seconds, took)
					for name := range v.Found {
						res.Found[name]++
					}
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
	for u, k := range unexpected {
		res.Unexpected = append(res.Unexpected, fmt.Sprintf("%dx %s", k, u))
	}
	sortStrings(res.Unexpected)
	return res
}

// compareModes runs the modes comparison on the program in dir (relative
// to repo): full runs at rate 1 and runs at rate r, in each mode.
func compareModes(o *options, rg, repo, work, dir string, modes []string, r float64) (programResult, error) {
	abs := filepath.Join(repo, dir)
	lines, names, err := loadProgram(abs)
	if err != nil {
		return programResult{}, err
	}
	if err := os.MkdirAll(filepath.Join(work, "modes"), 0o755); err != nil {
		return programResult{}, fmt.Errorf("creating scratch directory: %w", err)
	}
	m := &modeRunner{
		rg: rg, repo: repo, work: work, pkg: "./" + filepath.ToSlash(dir),
		tr:          trialRunner{lines: lines, file: "main.go", dir: abs, parallel: o.parallel},
		profileRuns: o.profRuns, profileRate: o.profRate,
	}
	pr := programResult{Dir: filepath.ToSlash(dir), Races: names}
	for _, mode := range modes {
		if mode == modeDynamic {
			// Whether the runtime takes a per-run seed.
			bin := filepath.Join(work, "modes", "seedprobe")
			if _, err := m.buildMode(mode, r, 1, filepath.Join(work, "rg-0"), bin); err != nil {
				return pr, err
			}
			m.seedOpt = knowsOption(bin, "seed=1")
		}
	}
	for _, mode := range modes {
		if _, fromProfile := racegenMode(mode); o.modeFull > 0 && !fromProfile {
			// At rate 1 a build samples every site, profile or not.
			res := m.run(mode, 1, o.modeFull)
			logf("%s %s rate 1: %d runs, %d distinct: %s", dir, mode, res.Runs, res.distinct(), foundCounts(res, names))
			pr.Full = append(pr.Full, res)
		}
		res := m.run(mode, r, o.modeRuns)
		logf("%s %s rate %g: %d runs, %d distinct: %s", dir, mode, r, res.Runs, res.distinct(), foundCounts(res, names))
		pr.Modes = append(pr.Modes, res)
	}
	return pr, nil
}

// foundCounts summarizes a mode's detections for the log.
func foundCounts(m modeResult, names []string) string {
	var parts []string
	for _, n := range names {
		if k := m.Found[n]; k > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", n, k))
		}
	}
	s := strings.Join(parts, ", ")
	if m.Failed > 0 {
		s += fmt.Sprintf("; %d failed", m.Failed)
	}
	if len(m.Unexpected) > 0 {
		s += fmt.Sprintf("; %d unexpected report kinds", len(m.Unexpected))
	}
	return s
}

// writeModes writes the modes comparison section of the report.
func writeModes(b *strings.Builder, rs *results) {
	if len(rs.Programs) == 0 {
		return
	}
	b.WriteString("## Modes side by side\n\n")
	fmt.Fprintf(b, "Each program run %d times in each mode at rate %g. ", rs.ModeRuns, rs.ModeRate)
	b.WriteString("Dynamic mode (Pacer) samples at run time: one\n")
	b.WriteString("build, a different run-time seed per run. The static modes sample access sites at build time:\n")
	b.WriteString("every run is a build of its own with its own `-seed`, so that each run samples a fresh set of\n")
	b.WriteString("sites, as CRSampler does. A race is distinct by its name; *distinct* counts the races found\n")
	b.WriteString("in at least one run. Static and collide cells also give, in brackets, the builds that sampled\n")
	b.WriteString("a site on one of the race's marked lines. The rate-1 columns show which races each mode can\n")
	b.WriteString("find at all: static mode finds only clock races (the first goroutine must not synchronize\n")
	b.WriteString("between the two accesses), collide mode holds the first goroutine at its access.\n\n")
	b.WriteString("| program | races | " + strings.Join(rs.modeNames(), " | ") + " | static / dynamic |\n")
	b.WriteString("|---|---|" + strings.Repeat("---|", len(rs.modeNames())) + "---|\n")
	for _, p := range rs.Programs {
		fmt.Fprintf(b, "| %s | %d |", p.Dir, len(p.Races))
		byMode := map[string]int{}
		for _, m := range p.Modes {
			byMode[m.Mode] = m.distinct()
			fmt.Fprintf(b, " %d |", m.distinct())
		}
		_, okS := byMode[modeStatic]
		d, okD := byMode[modeDynamic]
		switch {
		case !okS || !okD:
			b.WriteString(" - |\n")
		case d == 0:
			fmt.Fprintf(b, " %d / 0 |\n", byMode[modeStatic])
		default:
			fmt.Fprintf(b, " %.2f |\n", float64(byMode[modeStatic])/float64(d))
		}
	}
	b.WriteString("\n")
	writeModeCosts(b, rs)
	for _, p := range rs.Programs {
		fmt.Fprintf(b, "### %s\n\n", p.Dir)
		b.WriteString("| race |")
		for _, m := range p.Full {
			fmt.Fprintf(b, " %s r=1 |", m.Mode)
		}
		for _, m := range p.Modes {
			fmt.Fprintf(b, " %s r=%g |", m.Mode, m.Rate)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(p.Full)+len(p.Modes)) + "\n")
		for _, n := range p.Races {
			fmt.Fprintf(b, "| %s |", n)
			for _, m := range p.Full {
				fmt.Fprintf(b, " %d/%d |", m.Found[n], m.Runs)
			}
			for _, m := range p.Modes {
				if m.Sampled != nil {
					fmt.Fprintf(b, " %d [%d] |", m.Found[n], m.Sampled[n])
				} else {
					fmt.Fprintf(b, " %d |", m.Found[n])
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("| **distinct** |")
		for _, m := range p.Full {
			fmt.Fprintf(b, " **%d** |", m.distinct())
		}
		for _, m := range p.Modes {
			fmt.Fprintf(b, " **%d** |", m.distinct())
		}
		b.WriteString("\n| runs |")
		for _, m := range p.Full {
			fmt.Fprintf(b, " %d |", m.Runs)
		}
		for _, m := range p.Modes {
			fmt.Fprintf(b, " %d |", m.Runs)
		}
		b.WriteString("\n\n")
		for _, m := range append(append([]modeResult{}, p.Full...), p.Modes...) {
			fmt.Fprintf(b, "- %s r=%g: %s", m.Mode, m.Rate, m.How)
			if m.Sites > 0 {
				fmt.Fprintf(b, "; %d of %d sites sampled over all builds (%.2f%%), %.1f per build", m.SitesSampled, m.Sites, 100*float64(m.SitesSampled)/float64(m.Sites), float64(m.SitesSampled)/float64(m.Runs))
			}
			b.WriteString("\n")
			if m.Failed > 0 {
				fmt.Fprintf(b, "  - %d run(s) failed (build failed, or exit status other than 0 or 66)\n", m.Failed)
			}
			for _, u := range m.Unexpected {
				fmt.Fprintf(b, "  - unexpected report: %s\n", u)
			}
		}
		b.WriteString("\n")
	}
}

// writeModeCosts writes, for each program and mode at the comparison's
// rate, what the runs cost beside what they found: a mode that finds
// more by running longer has not found more on the same budget.
func writeModeCosts(b *strings.Builder, rs *results) {
	b.WriteString("What each mode's runs took (wall time, " + "runs side by side as the comparison ran them) beside what they found; *finds* sums the races\n")
	b.WriteString("reported over the runs.\n\n")
	b.WriteString("| program | mode | distinct | finds | median s | mean s | max s |\n|---|---|---|---|---|---|---|\n")
	for _, p := range rs.Programs {
		for _, m := range p.Modes {
			if len(m.Seconds) == 0 {
				fmt.Fprintf(b, "| %s | %s | %d | %d | - | - | - |\n", p.Dir, m.Mode, m.distinct(), m.finds())
				continue
			}
			fmt.Fprintf(b, "| %s | %s | %d | %d | %.2f | %.2f | %.2f |\n", p.Dir, m.Mode, m.distinct(), m.finds(),
				stats.Median(m.Seconds), mean(m.Seconds), slices.Max(m.Seconds))
		}
	}
	b.WriteString("\n")
}

// mean returns the mean of xs, which is not empty.
func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// modeNames lists the modes of the comparison, in the order run.
func (rs *results) modeNames() []string {
	var ns []string
	for _, p := range rs.Programs {
		for _, m := range p.Modes {
			if !slices.Contains(ns, m.Mode) {
				ns = append(ns, m.Mode)
			}
		}
	}
	return ns
}

// printModes prints the distinct races per program and mode.
func printModes(w io.Writer, rs *results) {
	for _, p := range rs.Programs {
		fmt.Fprintf(w, "%s (%d races), %d runs at rate %g:", p.Dir, len(p.Races), rs.ModeRuns, rs.ModeRate)
		for _, m := range p.Modes {
			fmt.Fprintf(w, " %s %d", m.Mode, m.distinct())
		}
		fmt.Fprintln(w, " distinct")
	}
}
