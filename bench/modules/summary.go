package main

import (
	"fmt"
	"strings"
)

// A summary is what the report says about one module in one form.
type summary struct {
	Ran                  bool // the form was run at all
	Pass, Fail, Skip     int  // tests by verdict
	Other                int  // timed out or without a verdict
	Pkgs                 int  // packages with test files or a failure
	NotBuilt, PkgTimeout int  // packages that did not build, or timed out
	// Setup is the first line the go command or racegen printed outside
	// the JSON, when no package ran: why the form could not test at all.
	Setup   string
	Killed  bool // the harness stopped the run at its time limit
	Err     string
	Reports int // race reports
	Pairs   int // distinct location pairs among them
	// Wall and BuildWall are the run's and the build step's seconds.
	Wall, BuildWall float64
	RSS             int64 // peak of the run's whole process tree
	BinRSS          int64 // peak of its test binaries
}

// summarize returns the summary of f.
func summarize(f *formResult) summary {
	var s summary
	if f == nil {
		return s
	}
	s.Ran = true
	s.Wall, s.BuildWall, s.RSS = f.Run.Wall, f.Build.Wall, f.Run.RSS
	s.Killed = f.Run.Killed || f.Build.Killed
	s.Err = f.Run.Err
	for _, u := range f.Binaries {
		s.BinRSS = max(s.BinRSS, u.RSS)
	}
	if f.Result == nil {
		return s
	}
	for _, t := range f.Result.Tests {
		switch t.Status {
		case statusPass:
			s.Pass++
		case statusFail:
			s.Fail++
		case statusSkip:
			s.Skip++
		default:
			s.Other++
		}
	}
	for _, p := range f.Result.Packages {
		switch p.Status {
		case statusSkip:
			continue
		case statusBuild:
			s.NotBuilt++
		case statusTimeout:
			s.PkgTimeout++
		}
		s.Pkgs++
	}
	if len(f.Result.Packages) == 0 && len(f.Result.Setup) > 0 {
		s.Setup = f.Result.Setup[0]
		if strings.HasSuffix(s.Setup, ":") && len(f.Result.Setup) > 1 {
			// "go: updates to go.mod needed; to update it:" and its advice.
			s.Setup += " " + f.Result.Setup[1]
		}
	}
	pairs := map[string]bool{}
	for _, r := range f.Result.Races {
		s.Reports++
		pairs[r.pairKey()] = true
	}
	s.Pairs = len(pairs)
	return s
}

// Tests is the number of tests with a result.
func (s summary) Tests() int { return s.Pass + s.Fail + s.Skip + s.Other }

// Complete reports whether the run tested every package it found, so
// that its wall time measures the whole suite.
func (s summary) Complete() bool {
	return s.Ran && s.Err == "" && s.Setup == "" && !s.Killed && s.NotBuilt == 0 && s.PkgTimeout == 0 && s.Pkgs > 0
}

// PassedCell is the summary's tests-passed entry: "79/80", or why there
// is no count.
func (s summary) PassedCell() string {
	switch {
	case !s.Ran:
		return "–"
	case s.Err != "":
		return "error"
	case s.Setup != "" || (s.Pkgs > 0 && s.NotBuilt == s.Pkgs):
		return "no build"
	}
	c := fmt.Sprintf("%d/%d", s.Pass, s.Tests())
	var notes []string
	if s.NotBuilt > 0 {
		notes = append(notes, fmt.Sprintf("%d pkg no build", s.NotBuilt))
	}
	if s.Killed || s.PkgTimeout > 0 {
		notes = append(notes, "timeout")
	}
	if len(notes) > 0 {
		c += " (" + strings.Join(notes, ", ") + ")"
	}
	return c
}

// WallCell is the run's wall time in seconds, marked when the run did
// not test the whole suite.
func (s summary) WallCell() string {
	switch {
	case !s.Ran:
		return "–"
	case s.Killed || s.PkgTimeout > 0:
		// A lower bound: some package's tests did not finish.
		return fmt.Sprintf("≥%.0f", s.Wall)
	case !s.Complete():
		return "–"
	}
	return fmtSeconds(s.Wall)
}

// ratioCell is s's wall time over base's, when both tested everything.
func ratioCell(s, base summary) string {
	if !s.Complete() || !base.Complete() || base.Wall <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f×", s.Wall/base.Wall)
}

func fmtSeconds(sec float64) string {
	if sec < 10 {
		return fmt.Sprintf("%.1f", sec)
	}
	return fmt.Sprintf("%.0f", sec)
}

func fmtMiB(b int64) string {
	if b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", float64(b)/(1<<20))
}
