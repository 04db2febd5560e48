package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// racegen merge reads the JSON reports of many runs of racegen-built
// programs (RACEGEN_OPTIONS="format=json log_path=DIR/app", one file per
// process) and prints each distinct race once. Sampled detection pays
// off across many runs, each of which sees a few races: merging them is
// how a fleet's runs become one list to fix. A race is keyed by its pair
// of sites, the first frames of its two accesses, in either order, as the
// detector itself counts a race once (suppress_equal_stacks).
//
// Inputs are read whole: a line that is not a report (a text report, a
// program's own output, a line cut short when a process died) is skipped
// with a warning that says where, and nothing readable is lost.

// A jsonReport is one line of the detector's format=json output
// (appendJSON in the runtime).
type jsonReport struct {
	Addr     string     `json:"addr"`
	Time     time.Time  `json:"time"`
	Access   jsonAccess `json:"access"`
	Previous jsonAccess `json:"previous"`
}

type jsonAccess struct {
	Op        string      `json:"op"`
	Goroutine int64       `json:"goroutine"`
	Stack     []jsonFrame `json:"stack"`
}

type jsonFrame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// site names the access by its first frame, "file:line".
func (a *jsonAccess) site() string {
	if len(a.Stack) == 0 {
		return "?"
	}
	return a.Stack[0].File + ":" + strconv.Itoa(a.Stack[0].Line)
}

// A mergedRace is one distinct race across the runs.
type mergedRace struct {
	Sites   [2]string `json:"sites"`   // the two sites, sorted
	Reports int       `json:"reports"` // reports of it, over all runs
	Runs    int       `json:"runs"`    // runs (input files) that reported it
	First   time.Time `json:"first"`
	Last    time.Time `json:"last"`
	// Inputs are the input files that reported it, in the order read.
	Inputs []string `json:"inputs"`
	// Example is its first report read.
	Example jsonReport `json:"example"`
}

// A mergeResult is what merging the inputs found.
type mergeResult struct {
	Runs    int           `json:"runs"`    // input files read
	Reports int           `json:"reports"` // reports read
	Skipped int           `json:"skipped"` // lines that were not reports
	Races   []*mergedRace `json:"races"`   // most reported first
}

// maxLineWarnings bounds the warnings printed for one input's skipped
// lines; the rest are counted.
const maxLineWarnings = 3

// mergeInputs reads the reports of the files named by paths (a directory
// stands for every file beneath it; "-" for standard input) and merges
// them. It writes a warning to warn for each line it skips. It fails if a
// path cannot be read.
func mergeInputs(paths []string, stdin io.Reader, warn io.Writer) (*mergeResult, error) {
	m := &merger{byKey: map[[2]string]*mergedRace{}, warn: warn}
	err := eachInput(paths, stdin, m.read)
	if err != nil {
		return nil, err
	}
	return m.result(), nil
}

// eachInput calls read for standard input ("-") and for each file named
// by paths or beneath a directory they name, with the file's
// modification time, and stops at the first error.
func eachInput(paths []string, stdin io.Reader, read func(name string, r io.Reader, mod time.Time) error) error {
	for _, p := range paths {
		if p == "-" {
			if err := read("standard input", stdin, time.Time{}); err != nil {
				return err
			}
			continue
		}
		err := filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			defer f.Close()
			info, err := f.Stat()
			if err != nil {
				return err
			}
			return read(name, f, info.ModTime())
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// mergeProfiles writes to w the sum of the profiles named by paths,
// skipping with a warning the files that are not profiles.
func mergeProfiles(paths []string, stdin io.Reader, w, warn io.Writer) error {
	sum := &profile{counts: map[string]uint64{}}
	err := eachInput(paths, stdin, func(name string, r io.Reader, _ time.Time) error {
		p, err := parseProfile(name, r)
		if err != nil {
			fmt.Fprintf(warn, "racegen merge: %v; skipped\n", err)
			return nil
		}
		sum.add(p)
		return nil
	})
	if err != nil {
		return err
	}
	if sum.runs == 0 {
		return errors.New("no profile read")
	}
	return sum.write(w)
}

// A merger accumulates reports.
type merger struct {
	res   mergeResult
	byKey map[[2]string]*mergedRace
	warn  io.Writer
}

// read merges the reports of one run's file. A report without a time
// (from a racegen before reports had one) takes the file's modification
// time, mod.
func (m *merger) read(name string, r io.Reader, mod time.Time) error {
	m.res.Runs++
	seen := map[*mergedRace]bool{}
	skipped := 0
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("reading %s: %w", name, err)
		}
		complete := err == nil
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		rep, perr := parseReport(line)
		if perr != nil {
			skipped++
			if skipped <= maxLineWarnings {
				why := "not a racegen JSON report"
				if !complete && bytes.HasPrefix(line, []byte("{")) {
					why = "a report cut short"
				}
				fmt.Fprintf(m.warn, "racegen merge: %s:%d: %s (%v); skipped\n", name, n, why, perr)
			}
			continue
		}
		if rep.Time.IsZero() {
			rep.Time = mod
		}
		m.add(name, rep, seen)
		if !complete {
			break
		}
	}
	if skipped > maxLineWarnings {
		fmt.Fprintf(m.warn, "racegen merge: %s: %d more lines skipped\n", name, skipped-maxLineWarnings)
	}
	m.res.Skipped += skipped
	return nil
}

// parseReport parses one line as a report, which must name both accesses.
func parseReport(line []byte) (*jsonReport, error) {
	var rep jsonReport
	if err := json.Unmarshal(line, &rep); err != nil {
		return nil, err
	}
	if rep.Access.Op == "" || rep.Previous.Op == "" {
		return nil, errors.New("no access and previous access")
	}
	return &rep, nil
}

// add merges rep, read from input name; seen holds the races this input
// has reported so far.
func (m *merger) add(name string, rep *jsonReport, seen map[*mergedRace]bool) {
	m.res.Reports++
	key := [2]string{rep.Access.site(), rep.Previous.site()}
	if key[1] < key[0] {
		key[0], key[1] = key[1], key[0]
	}
	r := m.byKey[key]
	if r == nil {
		r = &mergedRace{Sites: key, First: rep.Time, Last: rep.Time, Example: *rep}
		m.byKey[key] = r
		m.res.Races = append(m.res.Races, r)
	}
	r.Reports++
	if !seen[r] {
		seen[r] = true
		r.Runs++
		r.Inputs = append(r.Inputs, name)
	}
	if rep.Time.Before(r.First) {
		r.First = rep.Time
	}
	if rep.Time.After(r.Last) {
		r.Last = rep.Time
	}
}

// result returns the races most reported first, then by sites.
func (m *merger) result() *mergeResult {
	slices.SortStableFunc(m.res.Races, func(a, b *mergedRace) int {
		if a.Runs != b.Runs {
			return b.Runs - a.Runs
		}
		if a.Reports != b.Reports {
			return b.Reports - a.Reports
		}
		if c := cmp.Compare(a.Sites[0], b.Sites[0]); c != 0 {
			return c
		}
		return cmp.Compare(a.Sites[1], b.Sites[1])
	})
	if m.res.Races == nil {
		m.res.Races = []*mergedRace{}
	}
	return &m.res
}
