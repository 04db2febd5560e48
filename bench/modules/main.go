// Command modules is racegen's harness over real modules' test suites
// (make eval-modules). It copies each module of a pinned list from the
// module proxy into a work directory, runs the module's tests under go
// test, go test -race, racegen test at rate 1, go test
// -toolexec='racegen toolexec' at rate 1 and racegen test at rate 0.01,
// compares them test by test (verdicts, the races each form reports,
// wall time and peak memory) and writes docs/modules.md.
//
// Usage, from the repository root:
//
//	go run ./bench/modules [flags]
//
// Flags:
//
//	-modules re    only modules whose path matches re
//	-forms list    forms to run, comma-separated (default
//	               go,race,full,toolexec,rate0.01; go is required)
//	-timeout d     go test -timeout of every run (default 20m); a run
//	               still going two minutes later is killed
//	-reruns n      go test reruns of each test that disagrees or fails
//	               under go test (default 3; 0 for none)
//	-racegen path  racegen command to use (default: built from this
//	               checkout)
//	-netns=false   run the tests with the machine's network rather than
//	               in a network namespace that has only loopback
//	-work dir      work directory for module copies, logs and results.json,
//	               kept afterwards (default: a temporary directory, removed)
//	-out file      markdown report (default docs/modules.md)
//	-report file   write the report from a saved results.json, running
//	               nothing
//
// The module cache is only read: each module is copied out of it, and the
// copy's go.mod is never edited, so every module keeps its own language
// version. Runs use GOPROXY=off; the copies' dependencies are downloaded
// when they are prepared. Every run's output is kept under the work
// directory's logs/.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/racegen/racegen/bench/internal/modsrc"
	"github.com/racegen/racegen/bench/internal/runinfo"
)

func main() {
	if status, ok := internalMain(os.Args[1:]); ok {
		os.Exit(status)
	}
	if err := mainErr(); err != nil {
		fmt.Fprintf(os.Stderr, "modules: %v\n", err)
		os.Exit(1)
	}
}

// options are the harness's flags.
type options struct {
	modules    string
	forms      string
	timeout    time.Duration
	reruns     int
	racegenBin string
	netns      bool
	work       string
	out        string
	report     string
}

func mainErr() error {
	var o options
	flag.StringVar(&o.modules, "modules", "", "only modules whose path matches this `regexp`")
	flag.StringVar(&o.forms, "forms", "go,race,full,toolexec,rate0.01", "forms to run, comma-separated")
	flag.DurationVar(&o.timeout, "timeout", 20*time.Minute, "go test -timeout of every run")
	flag.IntVar(&o.reruns, "reruns", 3, "go test reruns of each test that disagrees or fails under go test")
	flag.StringVar(&o.racegenBin, "racegen", "", "racegen `command` (default: built from this checkout)")
	flag.BoolVar(&o.netns, "netns", true, "run tests in a network namespace that has only loopback")
	flag.StringVar(&o.work, "work", "", "work `dir`ectory, kept afterwards (default: a temporary one, removed)")
	flag.StringVar(&o.out, "out", "docs/modules.md", "markdown report `file`")
	flag.StringVar(&o.report, "report", "", "write the report from this saved results `file` only")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if o.report != "" {
		rs := new(results)
		if err := runinfo.LoadJSON(o.report, rs); err != nil {
			return err
		}
		if err := reparse(rs); err != nil {
			return err
		}
		if rs.RacegenSources == "" {
			// Results saved before the field: git can still tell.
			if c, ok := strings.CutPrefix(rs.Racegen, "commit "); ok {
				if repo, err := runinfo.RepoRoot(); err == nil {
					rs.RacegenSources = runinfo.SourcesCommit(repo, strings.Fields(c)[0])
				}
			}
		}
		return writeReportFile(rs, o.out)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rs, err := runAll(ctx, &o)
	if err != nil {
		return err
	}
	return writeReportFile(rs, o.out)
}

func writeReportFile(rs *results, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := writeReport(f, rs); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	logf("wrote %s", out)
	return nil
}

// reparse reads again the go test -json logs of rs's runs that are still
// in the work directory, so that a report written with -report reflects
// the parser as it is now rather than as it was during the run.
func reparse(rs *results) error {
	out, err := modsrc.Go(".", "env", "GOROOT", "GOMODCACHE")
	if err != nil {
		return err
	}
	goroot, modcache, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	n := 0
	for _, m := range rs.Modules {
		for _, fr := range m.Forms {
			if _, err := os.Stat(fr.Run.Stdout); err != nil {
				continue
			}
			dir := m.Dir
			if dir == "" {
				// Results saved before Dir: the logs are in WORK/logs/MODULE/.
				dir = copyDir(m.Module, filepath.Dir(filepath.Dir(filepath.Dir(fr.Run.Stdout))))
			}
			tr, err := readRun(fr.Run, m.Module, pathMap{ModRoot: dir, GOROOT: goroot, ModCache: modcache})
			if err != nil {
				return err
			}
			fr.Result = tr
			n++
		}
	}
	logf("read %d runs' logs again", n)
	return nil
}

// env is what runAll learns about the machine before running anything.
type env struct {
	repo    string
	work    string
	racegen string
	paths   pathMap // GOROOT and GOMODCACHE; ModRoot set per module
	runner  *runner
}

// runAll prepares and runs every module o selects.
func runAll(ctx context.Context, o *options) (*results, error) {
	start := time.Now()
	formNames, err := parseForms(o.forms)
	if err != nil {
		return nil, fmt.Errorf("-forms: %w", err)
	}
	re, err := regexp.Compile(o.modules)
	if err != nil {
		return nil, fmt.Errorf("-modules: %w", err)
	}
	var mods []module
	for _, m := range moduleList {
		if re.MatchString(m.Path) {
			mods = append(mods, m)
		}
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("-modules=%q matches no module", o.modules)
	}
	if o.reruns < 0 {
		return nil, fmt.Errorf("-reruns=%d: want 0 or more", o.reruns)
	}
	e, cleanup, err := setUp(o)
	if err != nil {
		return nil, err
	}
	defer cleanup()

	rs := &results{
		Command:        runinfo.CommandLine("./bench/modules"),
		Date:           time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Machine:        runinfo.Machine(),
		GoVersion:      runinfo.GoVersion(),
		Racegen:        runinfo.RacegenState(e.repo, o.racegenBin),
		RacegenSources: runinfo.SourcesCommit(e.repo, "HEAD"),
		Timeout:        o.timeout.Seconds(),
		Reruns:         o.reruns,
		NetNS:          o.netns,
		Env:            runEnv,
		Forms:          formNames,
		Load:           []string{loadAverage()},
	}
	saved := filepath.Join(e.work, "results.json")
	for _, m := range mods {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mr := runModule(ctx, e, m, formNames, o)
		rs.Modules = append(rs.Modules, mr)
		rs.Wall = time.Since(start).Seconds()
		if err := runinfo.SaveJSON(saved, rs); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rs.Load = append(rs.Load, loadAverage())
	if err := runinfo.SaveJSON(saved, rs); err != nil {
		return nil, err
	}
	logf("results saved in %s", saved)
	return rs, nil
}

// setUp finds the repository, makes the work directory, builds racegen
// and checks that tests can be given a network namespace. cleanup removes
// a temporary work directory.
func setUp(o *options) (*env, func(), error) {
	cleanup := func() {}
	repo, err := runinfo.RepoRoot()
	if err != nil {
		return nil, cleanup, err
	}
	e := &env{repo: repo}
	if o.work == "" {
		e.work, err = os.MkdirTemp("", "racegen-modules-")
		if err != nil {
			return nil, cleanup, err
		}
		cleanup = func() { os.RemoveAll(e.work) }
		logf("work directory %s (removed at the end; -work keeps one)", e.work)
	} else if e.work, err = filepath.Abs(o.work); err != nil {
		return nil, cleanup, err
	}
	if err := os.MkdirAll(filepath.Join(e.work, "logs"), 0o755); err != nil {
		return nil, cleanup, fmt.Errorf("creating the work directory: %w", err)
	}
	if o.racegenBin == "" {
		logf("building racegen from %s", repo)
	}
	if e.racegen, err = runinfo.Racegen(repo, e.work, o.racegenBin); err != nil {
		return nil, cleanup, err
	}
	out, err := modsrc.Go(e.work, "env", "GOROOT", "GOMODCACHE")
	if err != nil {
		return nil, cleanup, err
	}
	goroot, modcache, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	e.paths = pathMap{GOROOT: goroot, ModCache: modcache}

	self, err := os.Executable()
	if err != nil {
		return nil, cleanup, fmt.Errorf("finding this program for go test -exec: %w", err)
	}
	e.runner = &runner{self: self, netns: o.netns, env: withEnv(os.Environ(), runEnv), grace: defaultGrace}
	if o.netns {
		if err := e.runner.probeNetNS(); err != nil {
			return nil, cleanup, fmt.Errorf("%w\n(-netns=false runs the tests with this machine's network, where some modules' tests reach for hosts elsewhere)", err)
		}
	}
	return e, cleanup, nil
}

// probeNetNS checks that commands can run in a network namespace of
// their own.
func (r *runner) probeNetNS() error {
	if runtime.GOOS != "linux" {
		return errors.New("network namespaces are only available on Linux")
	}
	cmd := exec.Command(r.self, netnsArg, "go", "env", "GOROOT")
	cmd.Env = r.env
	cmd.SysProcAttr = sysProcAttr(true)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("cannot run commands in a network namespace: %v\n%s", err, out)
	}
	return nil
}

// runModule prepares m and runs its tests in every form.
func runModule(ctx context.Context, e *env, m module, formNames []string, o *options) *moduleResult {
	mr := &moduleResult{Module: m, Forms: map[string]*formResult{}}
	logf("%s@%s: preparing", m.Path, m.Version)
	prep, err := prepare(m, e.work)
	if err != nil {
		mr.PrepErr = err.Error()
		logf("  not prepared: %v", err)
		return mr
	}
	mr.Dir, mr.GoLine, mr.Note, mr.Warning = prep.Dir, prep.GoLine, prep.Note, prep.Warning
	if mr.Warning != "" {
		logf("  go mod download: %s", firstLine(mr.Warning))
	}
	paths := e.paths
	paths.ModRoot = prep.Dir
	logs := filepath.Join(e.work, "logs", strings.ReplaceAll(m.Path, "/", "_"))
	if err := os.MkdirAll(logs, 0o755); err != nil {
		mr.PrepErr = err.Error()
		return mr
	}
	for _, name := range formNames {
		if ctx.Err() != nil {
			return mr
		}
		f, _ := formNamed(name)
		fr := runForm(ctx, e, m, f, prep.Dir, paths, logs, o.timeout)
		mr.Forms[name] = fr
		s := summarize(fr)
		logf("  %-20s %s passed, %d race reports, %.1fs (build %.1fs) %s", f.Label, s.PassedCell(), s.Reports, s.Wall, s.BuildWall, stopped(fr, s))
	}
	if o.reruns > 0 && ctx.Err() == nil {
		mr.Reruns = rerun(ctx, e, m, mr, formNames, prep.Dir, paths, logs, o)
	}
	return mr
}

// testArgs returns the go test arguments every form's run gets, before
// the packages.
func testArgs(m module, limit time.Duration) []string {
	args := []string{"-json", "-count=1", "-vet=off", "-timeout=" + limit.String()}
	if m.Skip != "" {
		args = append(args, "-skip="+m.Skip)
	}
	return args
}

// runForm builds and then runs m's tests in form f.
func runForm(ctx context.Context, e *env, m module, f form, dir string, paths pathMap, logs string, limit time.Duration) *formResult {
	fr := &formResult{}
	base := filepath.Join(logs, f.Name)
	args := testArgs(m, limit)
	build := append(append([]string{"-run=^$"}, args...), m.patterns()...)
	fr.Build = e.runner.run(ctx, dir, f.command(e.racegen, build), limit, base+".build.json", base+".build.stderr")
	if fr.Build.Killed || fr.Build.Err != "" {
		fr.Run = fr.Build
		fr.Result, _ = readRun(fr.Build, m, paths)
		return fr
	}
	usage := base + ".binaries.jsonl"
	os.Remove(usage)
	execFlag, err := e.runner.execFlag(usage)
	if err != nil {
		fr.Run.Err = err.Error()
		return fr
	}
	run := append(append(args, execFlag), m.patterns()...)
	fr.Run = e.runner.run(ctx, dir, f.command(e.racegen, run), limit, base+".json", base+".stderr")
	fr.Result, err = readRun(fr.Run, m, paths)
	if err != nil {
		fr.Run.Err = err.Error()
	}
	if fr.Binaries, err = readUsage(usage, dir); err != nil && fr.Run.Err == "" {
		fr.Run.Err = err.Error()
	}
	return fr
}

// readRun parses the output files of inv. Standard error's lines join the
// non-JSON lines of standard output as the run's setup messages.
func readRun(inv invocation, m module, paths pathMap) (*testRun, error) {
	out, err := os.Open(inv.Stdout)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	tr, err := parseTestJSON(out, m.Path, paths, inv.Killed)
	if err != nil {
		return tr, err
	}
	if data, err := os.ReadFile(inv.Stderr); err == nil {
		for line := range strings.Lines(string(data)) {
			if line = strings.TrimSpace(line); line != "" && len(tr.Setup) < 40 {
				tr.Setup = append(tr.Setup, line)
			}
		}
	}
	return tr, nil
}

// rerun runs again, o.reruns times under go test, every top-level test
// that disagrees between forms or failed under go test, and returns the
// verdicts by test ID. Each rerun is a go test -count=1 of its own: with
// -count=N, a test binary stops repeating at the first failure.
func rerun(ctx context.Context, e *env, m module, mr *moduleResult, formNames []string, dir string, paths pathMap, logs string, o *options) map[string]*testResult {
	cands := rerunCandidates(mr, formNames)
	if len(cands) == 0 {
		return nil
	}
	out := map[string]*testResult{}
	base, _ := formNamed(formGo)
	for i, pkg := range sortedKeys(cands) {
		var quoted []string
		for _, name := range cands[pkg] {
			quoted = append(quoted, regexp.QuoteMeta(name))
		}
		args := append(testArgs(m, o.timeout), "-run=^("+strings.Join(quoted, "|")+")$")
		target := "./" + pkg
		if pkg == "." {
			target = "."
		}
		start := time.Now()
		for n := range o.reruns {
			if ctx.Err() != nil {
				return out
			}
			stem := filepath.Join(logs, fmt.Sprintf("rerun.%d.%d", i, n))
			inv := e.runner.run(ctx, dir, base.command(e.racegen, append(args, target)), o.timeout, stem+".json", stem+".stderr")
			tr, err := readRun(inv, m, paths)
			if err != nil || tr == nil {
				logf("  rerun of %s: %v", pkg, err)
				continue
			}
			for id, t := range tr.Tests {
				if r := out[id]; r != nil {
					t.Runs += r.Runs
					t.Fails += r.Fails
					if t.Excerpt == nil {
						t.Excerpt = r.Excerpt
					}
				}
				out[id] = t
			}
		}
		logf("  reran %d tests of package %s %d times under go test (%.1fs)", len(cands[pkg]), pkg, o.reruns, time.Since(start).Seconds())
	}
	return out
}

// loadAverage returns the system's load averages over 1, 5 and 15
// minutes, or "unknown".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "modules: %s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
