package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/racegen/racegen/bench/internal/runinfo"
)

// profileRun says how the profile of a configuration that starts from
// one (config.Profile) is made: Runs runs of the configuration's own
// binary at Rate, each writing its site counts (profile_out), summed by
// racegen merge -profiles. Those runs are not timed: they stand for the
// earlier runs of a fleet whose profile the next runs start from.
type profileRun struct {
	Runs int     `json:"runs"`
	Rate float64 `json:"rate"`
}

// String describes p for the report.
func (p profileRun) String() string {
	return fmt.Sprintf("the sum of %d untimed runs of the same binary with RACEGEN_OPTIONS='rate=%s profile_out=...', merged by racegen merge -profiles", p.Runs, fmtRate(p.Rate))
}

// makeProfile makes the profile p describes for workload w from the test
// binary bin, run in dir, and returns the merged profile's path, in
// workDir/profiles/w. Each run's output goes to a log in workDir/logs.
// A run that fails, other than by reporting races, fails the profile:
// its counts would be those of a run cut short.
func makeProfile(w *workload, p profileRun, bin, dir, workDir, racegenBin string, limit time.Duration) (string, error) {
	pdir := filepath.Join(workDir, "profiles", w.Name)
	if err := os.RemoveAll(pdir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(pdir, "runs"), 0o755); err != nil {
		return "", err
	}
	// profile_out takes a path without spaces: RACEGEN_OPTIONS separates
	// options with them.
	if strings.ContainsAny(pdir, " \t") {
		return "", fmt.Errorf("scratch directory %q has a space, which RACEGEN_OPTIONS cannot carry", pdir)
	}
	env := []string{"RACEGEN_OPTIONS=rate=" + fmtRate(p.Rate) + " profile_out=" + filepath.Join(pdir, "runs", "run")}
	for i := range p.Runs {
		logPath := filepath.Join(workDir, "logs", fmt.Sprintf("%s.profile.%d.txt", w.Name, i))
		r, err := measure(w, bin, dir, env, logPath, limit)
		if err != nil {
			return "", err
		}
		if r.Status != statusOK && r.Status != statusRaces {
			return "", fmt.Errorf("profile run %d: %s (see %s)", i, r.Status, logPath)
		}
	}
	out, err := runinfo.Run(pdir, nil, racegenBin, "merge", "-profiles", filepath.Join(pdir, "runs"))
	if err != nil {
		return "", err
	}
	merged := filepath.Join(pdir, "merged.prof")
	return merged, os.WriteFile(merged, out, 0o644)
}

// profileTargets makes the profile of one workload, whose targets are
// row, and gives it to every configuration that starts from one: to the
// runs of the dynamic ones (RACEGEN_OPTIONS=profile=PATH), to the builds
// of the static ones (racegen -profile). The profile is made by the
// binary of the row's first dynamic such configuration, or, if there is
// none, by a FRESA build of its own at the profile's rate. If the
// profile cannot be made, those configurations are recorded as n/a.
func profileTargets(row []target, p profileRun, workDir, racegenBin string, limit time.Duration) {
	var want []*target
	var maker *target
	for i := range row {
		t := &row[i]
		if !t.c.Profile || t.cel.NA != "" {
			continue
		}
		want = append(want, t)
		if maker == nil && !t.c.buildsFromProfile() {
			maker = t
		}
	}
	if len(want) == 0 {
		return
	}
	prof, err := "", error(nil)
	if maker == nil {
		// A FRESA build at the profile's own rate, timed by no one.
		t := *want[0]
		t.c = config{Name: "profiler", Kind: racegen, Mode: modeDynamic, Rate: p.Rate, Fresa: true}
		t.bin = filepath.Join(workDir, "bin", t.w.Name, "profiler.test")
		t.cel = &cell{}
		if t.build(racegenBin, ""); t.cel.NA != "" {
			err = errors.New(t.cel.NA)
		}
		maker = &t
	}
	if err == nil {
		logf("profile %s (%d runs at rate %s)", maker.w.Name, p.Runs, fmtRate(p.Rate))
		prof, err = makeProfile(maker.w, p, maker.bin, maker.dir, workDir, racegenBin, limit)
	}
	if err != nil {
		logf("  n/a: %v", err)
	}
	for _, t := range want {
		switch {
		case err != nil:
			t.cel.NA = "no profile: " + firstLine(err.Error())
		case t.c.buildsFromProfile():
			t.build(racegenBin, prof)
		default:
			t.env = []string{"RACEGEN_OPTIONS=profile=" + prof}
		}
	}
}
