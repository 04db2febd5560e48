// Command racegen instruments Go packages for data-race detection.
//
// Usage:
//
//	racegen [flags] packages...
//	racegen [flags] build|test|run [go flags] [packages] [arguments]
//	racegen [flags] toolexec TOOL [ARGS...]   (for go build -toolexec)
//	racegen [analysis flags] VET.cfg          (for go vet -vettool)
//
// In the first form racegen instruments the named packages of the current
// module, and the packages of the module they import, and prints on
// standard output the flags that make the go command build the
// instrumented code:
//
//	go build $(racegen -rate=1 ./...) ./cmd/app
//
// In the second form it instruments the packages that go command would
// build and runs it with those flags; racegen -rate=1 test -v ./... behaves
// like go test -race -v ./...
//
// Two more forms are for the go command to run. As its -toolexec wrapper,
// racegen rewrites the files of the compiles of the main module's
// packages and adds the detector runtime to their compiles and to the
// link:
//
//	go build -toolexec='racegen -rate=0.1 toolexec' ./cmd/app
//	go test -toolexec='racegen toolexec' ./...
//
// With -cover (or -coverpkg, -covermode, -coverprofile), racegen
// build|test|run also make racegen the go command's -toolexec wrapper
// ("racegen coverexec"), which instruments the copies of the files that
// the cover tool writes: cover reads the files on disk, not the overlay
// (see cover.go).
//
// As its -vettool, racegen runs its analysis as a go vet pass, which
// reports nothing unless asked to (see docs/usage.md):
//
//	go vet -vettool=$(which racegen) ./...
//
// racegen never writes into the module: the instrumented files, a copy of
// go.mod that requires the detector runtime, and the runtime's source go
// to a directory under the Go build cache (or -o), keyed by everything the
// result depends on, so a second run over unchanged sources reuses it.
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
//	           perf_event_open works on this machine
//	-o dir     where instrumented files go (default: under go env GOCACHE)
//	-v         report what was instrumented on standard error
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// config is the set of choices that shape the instrumented code.
type config struct {
	rate        float64
	mode        string
	seed        int64
	watch       time.Duration
	watchpoints string
	outDir      string
	verbose     bool
}

func main() {
	if isVetInvocation(os.Args[1:]) {
		vetMain() // does not return
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("racegen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.Float64Var(&cfg.rate, "rate", 1, "sampling `rate` from 0 to 1")
	fs.StringVar(&cfg.mode, "mode", "dynamic", "detection `mode`: dynamic, static or collide")
	fs.Int64Var(&cfg.seed, "seed", 1, "`seed` for build-time sampling")
	fs.DurationVar(&cfg.watch, "watch", 15*time.Millisecond, "time `limit` of a watchpoint (static and collide modes)")
	fs.StringVar(&cfg.watchpoints, "watchpoints", "auto", "`kind` of watchpoints for static and collide modes: hw, sw or auto")
	fs.StringVar(&cfg.outDir, "o", "", "`dir`ectory for instrumented files (default: under the Go build cache)")
	fs.BoolVar(&cfg.verbose, "v", false, "report what was instrumented")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: racegen [flags] packages...\n       racegen [flags] build|test|run [go flags] [packages] [arguments]\n       go build -toolexec='racegen [flags] toolexec' [packages]\n       go vet -vettool=$(which racegen) [packages]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	args = fs.Args()
	toolexec := len(args) > 0 && (args[0] == "toolexec" || args[0] == "coverexec")
	coverexec := toolexec && args[0] == "coverexec"
	if toolexec {
		// Flags may also follow the subcommand, up to the tool's path.
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		args = fs.Args()
	}
	if err := cfg.check(); err != nil {
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 2
	}
	if coverexec {
		return runCoverexec(&cfg, args, stdout, stderr) // see cover.go
	}
	if toolexec {
		return runToolexec(&cfg, args, stdout, stderr)
	}
	sub := ""
	if len(args) > 0 {
		switch args[0] {
		case "build", "test", "run":
			sub, args = args[0], args[1:]
		}
	}
	gargs, err := splitGoArgs(sub, args)
	if err != nil {
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 2
	}
	cover, userToolexec := coverRequested(gargs)
	if cover && sub == "" {
		fmt.Fprintf(stderr, "racegen: -cover needs racegen as the go command's -toolexec wrapper too, which printed flags cannot carry; use racegen build|test|run -cover\n")
		return 2
	}
	out, err := instrumentBuild(&cfg, sub, gargs, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 1
	}
	flags := out.goFlags()
	if sub == "" {
		fmt.Fprintln(stdout, joinFlags(flags))
		return 0
	}
	if cover {
		// See cover.go: cover does not read the overlay.
		f, err := coverToolexecFlag(&cfg, out, userToolexec)
		if err != nil {
			fmt.Fprintf(stderr, "racegen: %v\n", err)
			return 2
		}
		flags = append(flags, f)
	}
	return runGo(sub, flags, gargs, stdout, stderr)
}

func (c *config) check() error {
	if !(c.rate >= 0 && c.rate <= 1) {
		return fmt.Errorf("-rate=%v: want a number from 0 to 1", c.rate)
	}
	switch c.mode {
	case "dynamic", "static", "collide":
	default:
		return fmt.Errorf("-mode=%s: want dynamic, static or collide", c.mode)
	}
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
