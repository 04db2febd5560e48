package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Race reports. go test -race and racegen print the same text: a block
// that opens with "WARNING: DATA RACE", names the two conflicting
// accesses, each with a stack, then the goroutines' creation stacks, and
// closes with a line of "=". racegen prints only the top frame of the
// previous access, without PC offsets; -race prints whole stacks that
// start inside the runtime for accesses it intercepts (map operations,
// copy, ...). The harness names an access by its top frame outside the
// standard library, and a race by the pair of its two accesses' names.

// A frame is one function of a stack in a race report.
type frame struct {
	Func string `json:"func"`
	File string `json:"file"` // as printed, before shortening
	Line int    `json:"line"`
}

// An access is one of the two sides of a race report.
type access struct {
	Kind  string  // the header's words: "Read", "Previous write", ...
	Stack []frame // innermost first
}

// A loc names an access: its top user frame, with the file shortened
// by a pathMap.
type loc struct {
	Func string `json:"func"`
	Pos  string `json:"pos"` // "file:line", or "?" when the stack is empty
}

// A raceReport is one "WARNING: DATA RACE" block of a run, reduced to
// what the comparison needs.
type raceReport struct {
	Test  string    `json:"test"`  // test ID (see testID); "" outside any test
	Locs  [2]loc    `json:"locs"`  // ordered by Pos, so that the pair is the same whichever access came first
	Kinds [2]string `json:"kinds"` // the accesses' kinds, in the order of Locs
}

// pairKey names the race a report is about: the positions of its two
// accesses, in order.
func (r raceReport) pairKey() string { return r.Locs[0].Pos + " ↔ " + r.Locs[1].Pos }

var (
	// accessHeaderRE matches the first line of an access: "Read at
	// 0xc000018288 by goroutine 9:", "Previous write at 0x... by main
	// goroutine:", possibly followed by a note in brackets.
	accessHeaderRE = regexp.MustCompile(`^((?:Previous )?[A-Za-z -]+?) at 0x[0-9a-fA-F]+ by (?:main goroutine|goroutine \d+)(?: \[.*\])?:$`)
	// fileLineRE matches a frame's position: "/path/file.go:12 +0x8d",
	// with or without the PC offset.
	fileLineRE = regexp.MustCompile(`^(\S.*?):(\d+)(?: \+0x[0-9a-fA-F]+)?$`)
)

// raceBlockStart and raceBlockEnd delimit a race report.
const (
	raceBlockStart = "WARNING: DATA RACE"
	raceBlockEnd   = "=================="
)

// parseAccesses returns the accesses of a race report's lines (those
// after "WARNING: DATA RACE"), in the order printed: normally two.
func parseAccesses(lines []string) []access {
	var out []access
	in := false // inside an access's stack
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r\n")
		if m := accessHeaderRE.FindStringSubmatch(line); m != nil {
			out = append(out, access{Kind: m[1]})
			in = true
			continue
		}
		if !in {
			continue
		}
		if strings.TrimSpace(line) == "" || !strings.HasPrefix(line, " ") {
			// A blank line or the next section ("Goroutine 9 (running)
			// created at:") ends the stack.
			in = false
			continue
		}
		fn := strings.TrimSpace(line)
		if !strings.HasSuffix(fn, ")") || i+1 >= len(lines) {
			continue // "[failed to restore the stack]" and the like
		}
		m := fileLineRE.FindStringSubmatch(strings.TrimSpace(lines[i+1]))
		if m == nil {
			continue
		}
		i++
		n, _ := strconv.Atoi(m[2])
		a := &out[len(out)-1]
		a.Stack = append(a.Stack, frame{Func: strings.TrimSuffix(fn, "()"), File: m[1], Line: n})
	}
	return out
}

// A pathMap shortens the file names in race reports, so that reports
// from runs in different directories compare equal and read well.
type pathMap struct {
	ModRoot  string // the module copy: its files are named relative to it
	GOROOT   string // the Go installation: "$GOROOT/src/..."
	ModCache string // GOMODCACHE: "module@version/file"
}

// short returns file as the report shows it.
func (p pathMap) short(file string) string {
	for _, r := range []struct{ dir, prefix string }{
		{p.ModRoot, ""},
		{p.GOROOT, "$GOROOT/"},
		{p.ModCache, ""},
	} {
		if r.dir == "" {
			continue
		}
		if rel, ok := strings.CutPrefix(file, strings.TrimSuffix(r.dir, "/")+"/"); ok {
			return r.prefix + filepath.ToSlash(rel)
		}
	}
	return file
}

// inStd reports whether f is a frame of the standard library or of
// racegen's detector runtime, which are never where a race is "in" the
// program: -race's stacks start in runtime functions such as
// runtime.mapassign_fast64 for the accesses it intercepts.
func (p pathMap) inStd(f frame) bool {
	if p.GOROOT != "" && strings.HasPrefix(f.File, strings.TrimSuffix(p.GOROOT, "/")+"/") {
		return true
	}
	pkg := funcPackage(f.Func)
	if strings.HasPrefix(pkg, "github.com/racegen/racegen/runtime") {
		return true
	}
	// A standard library package's path has no dot in its first element;
	// package main's functions are the program's own.
	first, _, _ := strings.Cut(pkg, "/")
	return pkg != "main" && !strings.Contains(first, ".")
}

// funcPackage returns the import path in a function name as stacks print
// it: "example.com/m/z.(*T).M" is in "example.com/m/z".
func funcPackage(fn string) string {
	slash := strings.LastIndex(fn, "/")
	dot := strings.Index(fn[slash+1:], ".")
	if dot < 0 {
		return fn
	}
	return fn[:slash+1+dot]
}

// name returns the loc that names access a: its first frame outside the
// standard library, or its first frame if it has none.
func (p pathMap) name(a access) loc {
	if len(a.Stack) == 0 {
		return loc{Pos: "?"}
	}
	f := a.Stack[0]
	for _, g := range a.Stack {
		if !p.inStd(g) {
			f = g
			break
		}
	}
	return loc{Func: f.Func, Pos: p.short(f.File) + ":" + strconv.Itoa(f.Line)}
}

// reduceReport makes the raceReport of a race block's lines, found in the
// output of test. A block with fewer than two accesses (cut short by a
// crash) names the missing side "?".
func (p pathMap) reduceReport(test string, lines []string) raceReport {
	as := parseAccesses(lines)
	r := raceReport{Test: test}
	for i := range 2 {
		r.Locs[i] = loc{Pos: "?"}
		if i < len(as) {
			r.Locs[i] = p.name(as[i])
			r.Kinds[i] = as[i].Kind
		}
	}
	if r.Locs[1].Pos < r.Locs[0].Pos {
		r.Locs[0], r.Locs[1] = r.Locs[1], r.Locs[0]
		r.Kinds[0], r.Kinds[1] = r.Kinds[1], r.Kinds[0]
	}
	return r
}

// raceScanner collects the race blocks of one test's output, which
// arrives line by line.
type raceScanner struct {
	block []string // lines of the open block; nil when none is open
	open  bool
}

// line feeds one line of output. It returns the lines of a block that
// the line closes, or nil.
func (s *raceScanner) line(l string) []string {
	t := strings.TrimRight(l, "\r\n")
	if t == raceBlockStart {
		s.open, s.block = true, nil
		return nil
	}
	if !s.open {
		return nil
	}
	if strings.HasPrefix(t, raceBlockEnd) {
		s.open = false
		return s.block
	}
	s.block = append(s.block, t)
	return nil
}

// flush returns the lines of a block the output ended inside, or nil.
func (s *raceScanner) flush() []string {
	if !s.open {
		return nil
	}
	s.open = false
	return s.block
}
