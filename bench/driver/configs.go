package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/racegen/racegen/bench/internal/flaglist"
	"github.com/racegen/racegen/bench/internal/modsrc"
)

// A kind is how a configuration builds its test binary.
type kind int

const (
	base    kind = iota // go test -c
	race                // go test -race -c
	racegen             // racegen -mode=M -rate=R [-seed=S] test -c
)

// racegen's detection modes, as its -mode flag names them.
const (
	modeDynamic = "dynamic" // Pacer's sampling periods over FastTrack
	modeStatic  = "static"  // CRSampler: sites sampled at build time, clock races on watchpoints
	modeCollide = "collide" // DataCollider: sampled accesses wait on their watchpoints
)

// allModes lists the modes in report order.
var allModes = []string{modeDynamic, modeStatic, modeCollide}

// A config is one way of building every workload.
type config struct {
	Name string  // key in results: "base", "race", "rate=0.01", "static-rate=0.01"
	Kind kind    // how to build
	Mode string  // racegen's -mode; empty (results saved before modes) means dynamic
	Rate float64 // sampling rate, for racegen
	Seed int64   // racegen's -seed, for the static and collide modes
	// Access is racegen's -accesspkg: empty checks every package's
	// accesses; "./..." only the workload's own module's, the cost knob
	// for production (synchronization hooks stay everywhere).
	Access string
	// Fresa is racegen's -fresa: dynamic mode with FRESA's
	// frequency-sensitive rates in sampling periods.
	Fresa bool
	// Profile, with Fresa, starts every timed run from a profile of
	// earlier runs of the same binary (RACEGEN_OPTIONS=profile=PATH; see
	// makeProfile), as a fleet's next runs would. In static mode it
	// builds from a profile (racegen -profile), made by earlier runs of
	// a FRESA build of the same workload, so that the build-time choice
	// of sites favours cold ones.
	Profile bool
}

// buildsFromProfile reports whether c's build needs its workload's
// profile, which is made after the other builds.
func (c config) buildsFromProfile() bool {
	return c.Kind == racegen && c.Profile && c.mode() != modeDynamic
}

// mode returns c's racegen detection mode.
func (c config) mode() string {
	if c.Mode == "" {
		return modeDynamic
	}
	return c.Mode
}

// Label is the configuration's name in tables.
func (c config) Label() string {
	switch c.Kind {
	case base:
		return "uninstrumented"
	case race:
		return "go test -race"
	}
	l := "racegen " + c.mode() + " rate=" + fmtRate(c.Rate)
	if c.mode() != modeDynamic {
		l += " seed=" + strconv.FormatInt(c.Seed, 10)
	}
	if c.Access != "" {
		l += " accesspkg=" + c.Access
	}
	if c.Fresa {
		l += " fresa"
	}
	if c.Profile {
		l += " from a profile"
	}
	return l
}

// A modeRates is a racegen detection mode and the rates to measure it at.
type modeRates struct {
	Mode  string
	Rates []float64
}

// configsFor returns the configurations measured: the uninstrumented
// baseline, optionally -race, racegen in each mode at each of its rates,
// dynamic mode at accessRates with access checking narrowed to the
// workload's own module, dynamic mode with FRESA at fresaRates, and
// dynamic mode with FRESA started from a profile at profileRates, and
// static mode built from a profile at staticProfileRates. Static and
// collide builds all use seed.
func configsFor(withRace bool, mrs []modeRates, accessRates, fresaRates, profileRates, staticProfileRates []float64, seed int64) []config {
	cs := []config{{Name: "base", Kind: base}}
	if withRace {
		cs = append(cs, config{Name: "race", Kind: race})
	}
	for _, mr := range mrs {
		for _, r := range mr.Rates {
			c := config{Name: "rate=" + fmtRate(r), Kind: racegen, Mode: mr.Mode, Rate: r}
			if mr.Mode != modeDynamic {
				// Dynamic keeps the names of results saved before modes.
				c.Name = mr.Mode + "-" + c.Name
				c.Seed = seed
			}
			cs = append(cs, c)
		}
	}
	for _, r := range accessRates {
		cs = append(cs, config{Name: "own-rate=" + fmtRate(r), Kind: racegen, Mode: modeDynamic, Rate: r, Access: "./..."})
	}
	for _, r := range fresaRates {
		cs = append(cs, config{Name: "fresa-rate=" + fmtRate(r), Kind: racegen, Mode: modeDynamic, Rate: r, Fresa: true})
	}
	for _, r := range profileRates {
		cs = append(cs, config{Name: "fresa-profile-rate=" + fmtRate(r), Kind: racegen, Mode: modeDynamic, Rate: r, Fresa: true, Profile: true})
	}
	for _, r := range staticProfileRates {
		cs = append(cs, config{Name: "static-profile-rate=" + fmtRate(r), Kind: racegen, Mode: modeStatic, Rate: r, Seed: seed, Profile: true})
	}
	return cs
}

// parseRates parses a comma-separated list of rates in [0, 1].
func parseRates(s string) ([]float64, error) {
	return flaglist.Floats(s, func(r float64) bool { return r >= 0 && r <= 1 }, "a rate from 0 to 1")
}

func fmtRate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }

// buildError is a build that did not produce a binary. Rejected is set
// when racegen refused the configuration itself (exit status 2, such as
// a rate it does not support yet) rather than failing on the code.
type buildError struct {
	Rejected bool
	Msg      string
}

func (e *buildError) Error() string { return e.Msg }

// buildTest builds w's test binary for c at out, running in the module
// root dir. racegenBin is the racegen command. A dynamic configuration
// that starts from a profile builds as FRESA without one does: its
// profile is made by its own binary and given to the runs, not to the
// build. A static one builds from prof (c.buildsFromProfile).
func buildTest(w *workload, c config, dir, out, racegenBin, prof string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	pkg := "./" + w.Pkg
	if w.Pkg == "." {
		pkg = "."
	}
	// -vet=off: vet's findings in a module's tests (newer checks after
	// raiseGoVersion) are not the harness's business.
	var cmd *exec.Cmd
	switch c.Kind {
	case base:
		cmd = exec.Command("go", "test", "-vet=off", "-c", "-o", out, pkg)
	case race:
		cmd = exec.Command("go", "test", "-vet=off", "-race", "-c", "-o", out, pkg)
	case racegen:
		args := []string{"-mode=" + c.mode(), "-rate=" + fmtRate(c.Rate)}
		if c.mode() != modeDynamic {
			args = append(args, "-seed="+strconv.FormatInt(c.Seed, 10))
		}
		if c.Access != "" {
			args = append(args, "-accesspkg="+c.Access)
		}
		if c.Fresa {
			args = append(args, "-fresa")
		}
		if c.buildsFromProfile() {
			if prof == "" {
				return &buildError{Msg: "no profile to build from"}
			}
			args = append(args, "-profile="+prof)
		}
		args = append(args, "test", "-vet=off", "-c", "-o", out, pkg)
		cmd = exec.Command(racegenBin, args...)
	}
	cmd.Dir = dir
	cmd.Env = modsrc.Env()
	var outBuf bytes.Buffer
	cmd.Stdout = &outBuf
	cmd.Stderr = &outBuf
	err := cmd.Run()
	if err == nil {
		if _, err := os.Stat(out); err != nil {
			return &buildError{Msg: fmt.Sprintf("%s produced no binary", strings.Join(cmd.Args, " "))}
		}
		return nil
	}
	msg := strings.TrimSpace(outBuf.String())
	if ee, ok := err.(*exec.ExitError); ok && c.Kind == racegen && ee.ExitCode() == 2 {
		return &buildError{Rejected: true, Msg: firstLine(msg)}
	}
	return &buildError{Msg: fmt.Sprintf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, msg)}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
