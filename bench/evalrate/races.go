package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// markerRE matches the comment that names the race a line takes part in.
var markerRE = regexp.MustCompile(`//\s*race:\s*([A-Za-z0-9_-]+)\s*$`)

// raceLines maps line numbers of a source file to race names.
type raceLines map[int]string

// readMarkers returns the race markers of the Go source in src, and the
// race names in order of first appearance.
func readMarkers(src []byte) (raceLines, []string) {
	lines := raceLines{}
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

// jsonFrame, jsonAccess and jsonRace mirror the objects a racegen
// program writes with RACEGEN_OPTIONS=format=json.
type jsonFrame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
}

type jsonAccess struct {
	Op        string      `json:"op"`
	Goroutine int64       `json:"goroutine"`
	Stack     []jsonFrame `json:"stack"`
}

type jsonRace struct {
	Addr     string     `json:"addr"`
	Access   jsonAccess `json:"access"`
	Previous jsonAccess `json:"previous"`
}

// A verdict is what one trial's output says: the marked races it
// reported, and descriptions of reports that match no marked race.
type verdict struct {
	Found      map[string]bool
	Unexpected []string
}

// parseReports reads a trial's standard error: each line that is a JSON
// object is a race report. file is the base name of the source whose
// markers are lines. Other lines are ignored.
func parseReports(stderr []byte, file string, lines raceLines) (verdict, error) {
	v := verdict{Found: map[string]bool{}}
	for line := range bytes.Lines(stderr) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var r jsonRace
		if err := json.Unmarshal(line, &r); err != nil {
			return v, fmt.Errorf("reading report %q: %w", line, err)
		}
		a, okA := lines.name(r.Access.Stack, file)
		p, okP := lines.name(r.Previous.Stack, file)
		if okA && okP && a == p {
			v.Found[a] = true
			continue
		}
		v.Unexpected = append(v.Unexpected, fmt.Sprintf("%s %s / %s %s", r.Access.Op, frameString(r.Access.Stack), r.Previous.Op, frameString(r.Previous.Stack)))
	}
	return v, nil
}

// name returns the race marked on the innermost frame of stack that is
// in file.
func (l raceLines) name(stack []jsonFrame, file string) (string, bool) {
	for _, f := range stack {
		if filepath.Base(f.File) != file {
			continue
		}
		n, ok := l[f.Line]
		return n, ok
	}
	return "", false
}

func frameString(stack []jsonFrame) string {
	if len(stack) == 0 {
		return "(no stack)"
	}
	f := stack[0]
	return fmt.Sprintf("%s %s:%d", f.Func, filepath.Base(f.File), f.Line)
}

// loadProgram reads the markers of the evaluation program's main.go in
// dir.
func loadProgram(dir string) (raceLines, []string, error) {
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil {
		return nil, nil, fmt.Errorf("reading evaluation program: %w", err)
	}
	lines, names := readMarkers(src)
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("%s/main.go marks no race (// race: NAME)", dir)
	}
	return lines, names, nil
}

// optionUnsupported reports whether a program's start-up complaints on
// stderr say the RACEGEN_OPTIONS option name is unknown or refused.
func optionUnsupported(stderr []byte, name string) bool {
	for line := range strings.Lines(string(stderr)) {
		if strings.HasPrefix(line, "racegen: RACEGEN_OPTIONS: "+name+"=") {
			return true
		}
	}
	return false
}
