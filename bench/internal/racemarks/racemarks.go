// Package racemarks reads racegen's evaluation programs: the races their
// source marks, a line that takes part in race NAME ending in the comment
// "// race: NAME", and the JSON reports (RACEGEN_OPTIONS=format=json) of
// a run, matched against those marks. The evaluation harnesses
// (bench/evalrate, bench/fresa) share it.
package racemarks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// markerRE matches the comment that names the race a line takes part in.
var markerRE = regexp.MustCompile(`//\s*race:\s*([A-Za-z0-9_-]+)\s*$`)

// Lines maps line numbers of a source file to race names.
type Lines map[int]string

// ReadMarkers returns the race markers of the Go source in src, and the
// race names in order of first appearance.
func ReadMarkers(src []byte) (Lines, []string) {
	lines := Lines{}
	var names []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		m := markerRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		lines[n] = m[1]
		if !seen[m[1]] {
			seen[m[1]] = true
			names = append(names, m[1])
		}
	}
	return lines, names
}

// A Frame is one frame of a JSON report's stack.
type Frame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// An Access is one of a JSON report's two accesses.
type Access struct {
	Op        string  `json:"op"`
	Goroutine int64   `json:"goroutine"`
	Stack     []Frame `json:"stack"`
}

// A Report is one JSON report, a line that a racegen program writes with
// RACEGEN_OPTIONS=format=json.
type Report struct {
	Addr     string `json:"addr"`
	Access   Access `json:"access"`
	Previous Access `json:"previous"`
}

// A Verdict is what one trial's output says: the marked races it
// reported, and descriptions of reports that match no marked race.
type Verdict struct {
	Found      map[string]bool
	Unexpected []string
}

// ParseReports reads a trial's standard error: each line that is a JSON
// object is a race report. file is the base name of the source whose
// markers are lines. Other lines are ignored.
func ParseReports(stderr []byte, file string, lines Lines) (Verdict, error) {
	v := Verdict{Found: map[string]bool{}}
	for line := range bytes.Lines(stderr) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var r Report
		if err := json.Unmarshal(line, &r); err != nil {
			return v, fmt.Errorf("reading report %q: %w", line, err)
		}
		a, okA := lines.Name(r.Access.Stack, file)
		p, okP := lines.Name(r.Previous.Stack, file)
		if okA && okP && a == p {
			v.Found[a] = true
			continue
		}
		v.Unexpected = append(v.Unexpected, fmt.Sprintf("%s %s / %s %s", r.Access.Op, FrameString(r.Access.Stack), r.Previous.Op, FrameString(r.Previous.Stack)))
	}
	return v, nil
}

// name returns the race marked on the innermost frame of stack that is
// in file.
func (l Lines) Name(stack []Frame, file string) (string, bool) {
	for _, f := range stack {
		if filepath.Base(f.File) != file {
			continue
		}
		n, ok := l[f.Line]
		return n, ok
	}
	return "", false
}

func FrameString(stack []Frame) string {
	if len(stack) == 0 {
		return "(no stack)"
	}
	f := stack[0]
	return fmt.Sprintf("%s %s:%d", f.Func, filepath.Base(f.File), f.Line)
}

// LoadProgram reads the markers of the evaluation program's main.go in
// dir.
func LoadProgram(dir string) (Lines, []string, error) {
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil {
		return nil, nil, fmt.Errorf("reading evaluation program: %w", err)
	}
	lines, names := ReadMarkers(src)
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("%s/main.go marks no race (// race: NAME)", dir)
	}
	return lines, names, nil
}
