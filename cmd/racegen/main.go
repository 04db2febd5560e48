// Command racegen builds Go programs with data-race detection.
//
// Usage:
//
//	racegen [flags] build|test|run [go flags] [packages] [arguments]
//	racegen [flags] packages...               (prints go flags)
//	go build -toolexec='racegen [flags] toolexec' [packages]
//	go vet -vettool=$(which racegen) [packages]
//	racegen merge [-json] [report files or directories]
//	racegen help | version
//
// racegen is a -toolexec wrapper of the go command: for every package the
// go command compiles, the standard library and every dependency
// included, it rewrites the package's files so that memory accesses and
// synchronization call its detector runtime, and it links that runtime
// into the program. The packages it leaves alone, and why, are listed in
// policy.go. racegen build|test|run run the go command with racegen as
// its wrapper; racegen -rate=1 test -v ./... behaves like
// go test -race -v ./...
//
// The second form prints the go command flags that do the same, for
// scripts that run the go command themselves:
//
//	go build $(racegen -rate=0.01 ./...) -o app ./cmd/app
//
// As go vet's -vettool, racegen runs its analysis as a vet pass, which
// reports nothing unless asked to (see docs/usage.md).
//
// racegen merge reads the JSON reports of many runs (RACEGEN_OPTIONS=
// "format=json log_path=...") and prints each distinct race once, with
// how often and when it was seen (merge.go).
//
// racegen never writes into a module, nor into the module cache: the
// rewritten files live in the go command's work directory for the length
// of one compile, and the compiled packages in the go build cache, under
// a key that names racegen and its flags.
//
// Flags:
//
//	-rate r    sampling rate, 0 to 1 (default 1: detect every race); the
//	           program can override it with RACEGEN_OPTIONS=rate=r
//	-mode m    dynamic (the default): Pacer's sampling periods over
//	           FastTrack; static: CRSampler's clock races on watchpoints,
//	           with a fraction -rate of access sites sampled at build time;
//	           collide: DataCollider, the same sites delayed while their
//	           watchpoint waits
//	-seed n    seed for build-time sampling (static and collide)
//	-watch d   time limit of a watchpoint (static and collide; default 15ms)
//	-watchpoints w
//	           hw: unsampled sites carry no code and hardware watchpoints
//	           catch the second access; sw: unsampled sites check a table
//	           of armed software watchpoints; auto (default): hw if
//	           perf_event_open breakpoints open and fire on this machine
//	-accesspkg patterns
//	           check memory accesses only in the packages matching these
//	           comma-separated patterns (as -coverpkg takes them); the
//	           other packages keep their synchronization hooks
//	-o dir     where racegen keeps the detector runtime's source (default:
//	           under go env GOCACHE)
//	-fresa     FRESA: in sampling periods, record the accesses of a site
//	           less often the more it has been accessed (dynamic mode)
//	-profile f start FRESA's site counts from the profile f, written by
//	           runs with RACEGEN_OPTIONS=profile_out=PATH and merged with
//	           racegen merge -profiles
//	-v         report what was instrumented on standard error
//	-version   print racegen's version and exit
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/racegen/racegen/instrument"
)

// config is the set of choices that shape the instrumented code.
type config struct {
	rate        float64
	mode        instrument.Mode
	seed        int64
	watch       time.Duration
	watchpoints string
	access      []string // -accesspkg, resolved to import path patterns
	outDir      string
	verbose     bool
	fresa       bool   // -fresa: frequency-sensitive sampling
	profile     string // -profile, made absolute
	profileSrc  string // the profile's contents, read by check
}

func main() {
	if isVetInvocation(os.Args[1:]) {
		vetMain() // does not return
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: racegen [flags] build|test|run [go flags] [packages] [arguments]
       racegen [flags] packages...      (prints the go flags that build with racegen)
       go build -toolexec='racegen [flags] toolexec' [packages]
       go vet -vettool=$(which racegen) [packages]
       racegen merge [-json] [report files or directories]
       racegen help | version

Run 'racegen help' for the flags; docs/usage.md has the rest.
`

// run is main without the exit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return runMerge(args[1:], os.Stdin, stdout, stderr) // flags of its own
	}
	fs := flag.NewFlagSet("racegen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	var accessPkg string
	var version bool
	fs.Float64Var(&cfg.rate, "rate", 1, "sampling `rate` from 0 to 1")
	mode := fs.String("mode", instrument.Dynamic.String(), "detection `mode`: dynamic, static or collide")
	fs.Int64Var(&cfg.seed, "seed", 1, "`seed` for build-time sampling")
	fs.DurationVar(&cfg.watch, "watch", 15*time.Millisecond, "time `limit` of a watchpoint (static and collide modes)")
	fs.StringVar(&cfg.watchpoints, "watchpoints", "auto", "`kind` of watchpoints for static and collide modes: hw, sw or auto")
	fs.StringVar(&accessPkg, "accesspkg", "", "check memory accesses only in packages matching these comma-separated `patterns` (default: all)")
	fs.StringVar(&cfg.outDir, "o", "", "`dir`ectory for the detector runtime's source (default: under the Go build cache)")
	fs.BoolVar(&cfg.verbose, "v", false, "report what was instrumented")
	fs.BoolVar(&cfg.fresa, "fresa", false, "frequency-sensitive sampling: hot sites are recorded less often in sampling periods (dynamic mode)")
	fs.StringVar(&cfg.profile, "profile", "", "start FRESA's site counts from this profile `file` (written with RACEGEN_OPTIONS=profile_out)")
	fs.BoolVar(&version, "version", false, "print racegen's version and exit")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\nflags:\n", strings.TrimSuffix(usage, "\nRun 'racegen help' for the flags; docs/usage.md has the rest.\n"))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	args = fs.Args()
	toolexec := len(args) > 0 && args[0] == "toolexec"
	if toolexec {
		// Flags may also follow the subcommand, up to the tool's path.
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		args = fs.Args()
	}
	switch {
	case version || !toolexec && len(args) > 0 && args[0] == "version":
		fmt.Fprintln(stdout, versionString())
		return 0
	case !toolexec && len(args) > 0 && args[0] == "help":
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	case !toolexec && len(args) == 0:
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err := cfg.check(*mode); err != nil {
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 2
	}
	if accessPkg != "" {
		cfg.access = strings.Split(accessPkg, ",")
	}
	if toolexec {
		// Here -accesspkg's patterns are import path patterns: the
		// other forms resolve relative ones before they get here.
		return runToolexec(&cfg, args, stdout, stderr)
	}
	sub := ""
	switch args[0] {
	case "build", "test", "run":
		sub, args = args[0], args[1:]
	}
	gargs, err := splitGoArgs(sub, args)
	if err == nil {
		err = checkGoFlags(gargs)
	}
	if err == nil {
		err = checkExperiments(gargs.dir)
	}
	if err == nil && len(cfg.access) > 0 {
		cfg.access, err = resolvePatterns(gargs.dir, cfg.access)
	}
	if err != nil {
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 2
	}
	if sub == "" {
		return printFlags(&cfg, gargs, stdout, stderr)
	}
	wrapper, err := toolexecFlag(&cfg)
	if err != nil {
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 1
	}
	flags := []string{wrapper}
	if !gargs.has("pgo") {
		flags = append(flags, "-pgo=off")
	}
	ov, err := raceTagOverlay(&cfg, gargs, sub == "test")
	if err != nil {
		fmt.Fprintf(stderr, "racegen: race build tag: %v\n", err)
		return 1
	}
	if ov != "" {
		// The overlay includes the user's, which it replaces.
		flags = append(flags, "-overlay="+ov)
		gargs.flags = withoutFlag(gargs.flags, "overlay")
	}
	return runGo(sub, flags, gargs, stdout, stderr)
}

// check validates the flags in c and sets c.mode from mode, the -mode
// flag.
func (c *config) check(mode string) error {
	if !(c.rate >= 0 && c.rate <= 1) {
		return fmt.Errorf("-rate=%v: want a number from 0 to 1", c.rate)
	}
	m, err := instrument.ParseMode(mode)
	if err != nil {
		return fmt.Errorf("-mode: %w", err)
	}
	c.mode = m
	if c.watch <= 0 {
		return fmt.Errorf("-watch=%v: want a positive duration", c.watch)
	}
	switch c.watchpoints {
	case "auto":
		c.watchpoints = "sw"
		if hardwareWatchpoints() {
			c.watchpoints = "hw"
		}
	case "hw", "sw":
	default:
		return fmt.Errorf("-watchpoints=%s: want hw, sw or auto", c.watchpoints)
	}
	if c.fresa && c.mode != instrument.Dynamic {
		return fmt.Errorf("-fresa: frequency-sensitive sampling is for -mode=dynamic")
	}
	if c.profile != "" {
		abs, err := filepath.Abs(c.profile)
		if err != nil {
			return fmt.Errorf("-profile: %w", err)
		}
		src, err := os.ReadFile(abs)
		if err != nil {
			return fmt.Errorf("-profile: %w", err)
		}
		if err := checkProfile(src); err != nil {
			return fmt.Errorf("-profile %s: %w", c.profile, err)
		}
		c.profile, c.profileSrc = abs, string(src)
	}
	return nil
}

// runGo runs go sub with racegen's flags before the user's arguments and
// returns its exit status.
func runGo(sub string, flags []string, g goArgs, stdout, stderr io.Writer) int {
	args := []string{sub}
	if g.dir != "" {
		args = append(args, "-C="+g.dir)
	}
	args = append(args, flags...)
	args = append(args, g.flags...)
	args = append(args, g.patterns...)
	args = append(args, g.rest...)
	cmd := exec.Command("go", args...)
	cmd.Stdin = os.Stdin
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 1
	}
	return 0
}
