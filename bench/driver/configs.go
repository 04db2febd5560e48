package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// A kind is how a configuration builds its test binary.
type kind int

const (
	base    kind = iota // go test -c
	race                // go test -race -c
	racegen             // racegen -rate=R test -c
)

// A config is one way of building every workload.
type config struct {
	Name string  // key in results: "base", "race", "rate=0.01"
	Kind kind    // how to build
	Rate float64 // sampling rate, for racegen
}

// Label is the configuration's name in tables.
func (c config) Label() string {
	switch c.Kind {
	case base:
		return "uninstrumented"
	case race:
		return "go test -race"
	}
	return "racegen " + c.Name
}

// configsFor returns the configurations measured: the uninstrumented
// baseline, optionally -race, and racegen at each rate.
func configsFor(withRace bool, rates []float64) []config {
	cs := []config{{Name: "base", Kind: base}}
	if withRace {
		cs = append(cs, config{Name: "race", Kind: race})
	}
	for _, r := range rates {
		cs = append(cs, config{Name: "rate=" + strconv.FormatFloat(r, 'g', -1, 64), Kind: racegen, Rate: r})
	}
	return cs
}

// parseRates parses a comma-separated list of rates in [0, 1].
func parseRates(s string) ([]float64, error) {
	var rs []float64
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		r, err := strconv.ParseFloat(f, 64)
		if err != nil || !(r >= 0 && r <= 1) {
			return nil, fmt.Errorf("rate %q: want a number from 0 to 1", f)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// buildError is a build that did not produce a binary. Rejected is set
// when racegen refused the configuration itself (exit status 2, such as
// a rate it does not support yet) rather than failing on the code.
type buildError struct {
	Rejected bool
	Msg      string
}

func (e *buildError) Error() string { return e.Msg }

// buildTest builds w's test binary for c at out, running in the module
// root dir. racegenBin is the racegen command.
func buildTest(w *workload, c config, dir, out, racegenBin string) error {
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
		rate := strconv.FormatFloat(c.Rate, 'g', -1, 64)
		cmd = exec.Command(racegenBin, "-rate="+rate, "test", "-vet=off", "-c", "-o", out, pkg)
	}
	cmd.Dir = dir
	cmd.Env = goEnv()
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
