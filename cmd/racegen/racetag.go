package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/build"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// A program built with go build -race is built with the race build tag,
// and code says what differs under a race detector with it: fasthttp's
// allocation tests are //go:build !race, since the detector allocates;
// x/sys/unix tells the detector about the synchronization of system calls
// in a //go:build race file, through runtime.RaceAcquire and its kin.
// racegen is a race detector, so the packages outside the standard
// library see the race tag in racegen's builds as they do in -race's.
//
// The standard library cannot: with the tag, package runtime would call
// the C race runtime. It needs none, since racegen turns its
// internal/race annotations on by itself (see the instrumenter). Build
// tags being one setting of the whole build, the go command cannot be
// given the tag for some packages only; racegen gives it, instead, an
// -overlay that makes the files of the other packages what the tag would
// select: a file that only the tag selects is replaced by a copy without
// its build constraint, and one that the tag rules out is deleted. The
// wrapper then compiles the runtime.Race* calls that such files make
// into the detector's hooks (typecheck.go, and the instrumenter).
//
// The go command refuses to overlay files in the module cache, so the
// packages there, the dependencies of most modules, keep the files of a
// build without the tag: the tag reaches the main module, the other
// modules of a workspace and those replaced by a directory, which is
// where a module's own tests say what differs under a race detector.
//
// The -toolexec form alone cannot do this: the go command has chosen
// the files before the wrapper sees a compile. The printed flags include
// the overlay.

// An overlay is the go command's -overlay file: paths of files replaced
// by others, or deleted (replaced by "").
type overlay struct {
	Replace map[string]string
}

// listedPackage is what racetag needs of go list's description of a
// package.
type listedPackage struct {
	Dir, ImportPath string
	Standard        bool
	GoFiles         []string
	CgoFiles        []string
	TestGoFiles     []string
	XTestGoFiles    []string
	IgnoredGoFiles  []string
}

// listContext is go list's description of the build context.
type listContext struct {
	GOOS, GOARCH string
	CgoEnabled   bool
	BuildTags    []string
	ToolTags     []string
	ReleaseTags  []string
}

// raceTagOverlay writes, unless it exists, the overlay that gives the
// packages g names, and their dependencies outside the standard library,
// the files that the race build tag selects, merged with the user's own
// -overlay, and returns its path, or "" if the tag changes no file.
// tests says whether test files are built. The overlay and the copies it
// names live in the output root, named by their contents.
func raceTagOverlay(cfg *config, g goArgs, tests bool) (string, error) {
	env, err := goEnvsIn(g.dir, "GOFLAGS", "GOMODCACHE")
	if err != nil {
		return "", err
	}
	goflags := splitQuoted(env[0])
	user, err := userOverlay(g, goflags)
	if err != nil {
		return "", err
	}
	tags := effectiveTags(g, goflags)
	ctx, pkgs, err := listForRaceTag(g, tags, tests)
	if err != nil {
		return "", err
	}
	base, race := ctx.buildContext(user), ctx.buildContext(user)
	race.BuildTags = append(slices.Clone(race.BuildTags), "race")

	modCache := env[1]
	changed := map[string][]byte{} // file -> new contents, nil to delete
	for _, p := range pkgs {
		switch {
		case p.Standard, p.ImportPath == "command-line-arguments": // files named on the command line ignore constraints
			continue
		case modCache != "" && inDir(p.Dir, modCache):
			continue // the go command takes no overlay there
		}
		for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.TestGoFiles, p.XTestGoFiles, p.IgnoredGoFiles} {
			for _, name := range list {
				file := filepath.Join(p.Dir, name)
				if _, done := changed[file]; done {
					continue
				}
				inRace, err := race.MatchFile(p.Dir, name)
				if err != nil {
					return "", fmt.Errorf("reading %s: %w", file, err)
				}
				inBase, err := base.MatchFile(p.Dir, name)
				if err != nil {
					return "", fmt.Errorf("reading %s: %w", file, err)
				}
				switch {
				case inRace && !inBase:
					src, err := readOverlaid(user, file)
					if err != nil {
						return "", err
					}
					changed[file] = overlayCopy(file, src)
				case inBase && !inRace:
					changed[file] = nil
				}
			}
		}
	}
	if len(changed) == 0 && user == nil {
		return "", nil
	}
	root, err := outRoot(cfg)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "racetag")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	o := overlay{Replace: map[string]string{}}
	if user != nil {
		for k, v := range user.Replace {
			o.Replace[k] = v
		}
	}
	for file, src := range changed {
		if src == nil {
			o.Replace[file] = ""
			continue
		}
		name, err := writeByContent(dir, filepath.Base(file), src)
		if err != nil {
			return "", err
		}
		o.Replace[file] = name
	}
	data, err := json.MarshalIndent(o, "", "\t") // sorted keys: the same overlay, the same name
	if err != nil {
		return "", err
	}
	return writeByContent(dir, "overlay.json", data)
}

// effectiveTags returns the -tags the go command would use for g: its
// command line's, else those of goflags, GOFLAGS split.
func effectiveTags(g goArgs, goflags []string) string {
	if g.tags != "" {
		return g.tags
	}
	tags := ""
	for _, f := range pickObjectFlags(goflags, false) {
		if v, ok := strings.CutPrefix(f, "-tags="); ok {
			tags = v
		}
	}
	return tags
}

// listFlags returns the flags of g that go list takes and that change
// which packages and files it lists.
func listFlags(g goArgs) []string {
	var out []string
	for _, f := range g.flags {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		switch name {
		case "mod", "modfile", "overlay":
			out = append(out, f)
		}
	}
	return out
}

// listForRaceTag lists, with the race tag added to tags, the build
// context and every package of the build of g.
func listForRaceTag(g goArgs, tags string, tests bool) (*listContext, []listedPackage, error) {
	withRace := "race"
	if tags != "" {
		withRace = tags + ",race"
	}
	args := append([]string{"list", "-e", "-deps", "-tags=" + withRace}, listFlags(g)...)
	if tests {
		args = append(args, "-test")
	}
	const ctxTemplate = `{{context.GOOS}} {{context.GOARCH}} {{context.CgoEnabled}} ` +
		`{{join context.BuildTags ","}} {{join context.ToolTags ","}} {{join context.ReleaseTags ","}}` + "\n"
	ctxOut, err := goList(g.dir, append(slices.Clone(args[:3]), "-f", ctxTemplate), g.patterns)
	if err != nil {
		return nil, nil, err
	}
	line, _, _ := strings.Cut(string(ctxOut), "\n")
	f := strings.Split(line, " ")
	if len(f) != 6 {
		return nil, nil, fmt.Errorf("go list's build context %q: want 6 fields", line)
	}
	split := func(s string) []string { return strings.FieldsFunc(s, func(r rune) bool { return r == ',' }) }
	ctx := listContext{GOOS: f[0], GOARCH: f[1], CgoEnabled: f[2] == "true",
		BuildTags: split(f[3]), ToolTags: split(f[4]), ReleaseTags: split(f[5])}
	out, err := goList(g.dir, append(args, "-json=Dir,ImportPath,Standard,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,IgnoredGoFiles"), g.patterns)
	if err != nil {
		return nil, nil, err
	}
	var pkgs []listedPackage
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("reading go list's packages: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	return &ctx, pkgs, nil
}

// goList runs go list with args and patterns in dir and returns its
// output.
func goList(dir string, args, patterns []string) ([]byte, error) {
	cmd := exec.Command("go", append(args, patterns...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(patterns, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// buildContext returns the go/build context that matches files as the
// go command listing c does, reading them through the user's overlay.
func (c *listContext) buildContext(user *overlay) *build.Context {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = c.GOOS, c.GOARCH, c.CgoEnabled
	ctx.BuildTags = slices.DeleteFunc(slices.Clone(c.BuildTags), func(t string) bool { return t == "race" })
	ctx.ToolTags = c.ToolTags
	ctx.ReleaseTags = c.ReleaseTags
	ctx.OpenFile = func(path string) (io.ReadCloser, error) {
		src, err := readOverlaid(user, path)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(src)), nil
	}
	return &ctx
}

// userOverlay reads the -overlay file the user gave, on the command line
// or in goflags (GOFLAGS split), or returns nil if there is none.
func userOverlay(g goArgs, goflags []string) (*overlay, error) {
	name := ""
	for _, f := range append(slices.Clone(goflags), g.flags...) {
		if v, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "overlay="); ok && strings.HasPrefix(f, "-") {
			name = v
		}
	}
	if name == "" {
		return nil, nil
	}
	if !filepath.IsAbs(name) && g.dir != "" {
		name = filepath.Join(g.dir, name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading -overlay: %w", err)
	}
	var o overlay
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("reading -overlay %s: %w", name, err)
	}
	// The go command resolves relative paths from its directory.
	abs := overlay{Replace: make(map[string]string, len(o.Replace))}
	for k, v := range o.Replace {
		abs.Replace[absIn(g.dir, k)] = v
		if v != "" {
			abs.Replace[absIn(g.dir, k)] = absIn(g.dir, v)
		}
	}
	return &abs, nil
}

// absIn returns path made absolute from dir (the working directory if
// dir is "").
func absIn(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return filepath.Join(dir, path)
}

// readOverlaid reads file, or what the user's overlay replaces it with.
func readOverlaid(user *overlay, file string) ([]byte, error) {
	if user != nil {
		if r, ok := user.Replace[file]; ok {
			if r == "" {
				return nil, fmt.Errorf("%s: deleted by -overlay", file)
			}
			file = r
		}
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	return src, nil
}

// overlayCopy returns the copy of file, whose contents are src, that the
// overlay names in its place: without its build constraints, and with a
// //line comment first that gives its lines their file's name and
// numbers, for reports and the compiler's messages.
func overlayCopy(file string, src []byte) []byte {
	return append([]byte("//line "+file+":1\n"), withoutConstraints(src)...)
}

// withoutConstraints returns src with the build constraints of its
// header (//go:build and // +build lines) made empty comments, which
// keeps every line where it was, for positions in reports.
func withoutConstraints(src []byte) []byte {
	out := slices.Clone(src)
	header := headerLen(out)
	for i := 0; i < header; {
		end := bytes.IndexByte(out[i:header], '\n')
		if end < 0 {
			end = header - i
		}
		line := bytes.TrimSpace(out[i : i+end])
		if bytes.HasPrefix(line, []byte("//go:build")) || bytes.HasPrefix(line, []byte("// +build")) {
			start := i + bytes.Index(out[i:i+end], []byte("//"))
			for j := start + 2; j < i+end; j++ {
				if out[j] != '\r' {
					out[j] = ' '
				}
			}
		}
		i += end + 1
	}
	return out
}

// headerLen returns the length of the part of src before its package
// clause, where build constraints may be.
func headerLen(src []byte) int {
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src) - i
		}
		if bytes.HasPrefix(bytes.TrimSpace(src[i:i+end]), []byte("package ")) {
			return i
		}
		i += end + 1
	}
	return len(src)
}

// writeByContent writes data, unless it is there already, to a file of
// dir named by its hash and name, and returns the file's path.
func writeByContent(dir, name string, data []byte) (string, error) {
	h := sha256.Sum256(data)
	path := filepath.Join(dir, hex.EncodeToString(h[:])[:20]+"-"+name)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp, cleanup, err := writeTemp(dir, "overlay", data)
	if err != nil {
		return "", err
	}
	defer cleanup()
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, nil
}

// withoutFlag returns flags without the go flag -name.
func withoutFlag(flags []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(flags), func(f string) bool {
		n, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		return strings.HasPrefix(f, "-") && n == name
	})
}

// inDir reports whether path is dir or lies beneath it.
func inDir(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
