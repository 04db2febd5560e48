package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/racegen/racegen/analysis"
	"github.com/racegen/racegen/instrument"
)

// Coverage (go build|test|run -cover, -coverpkg, -covermode,
// -coverprofile) and racegen's overlay do not compose by themselves: the
// go command runs the cover tool on the package's files as they are on
// disk (it does not look them up in the -overlay), and compiles the
// copies cover writes in its work directory. With the overlay alone, the
// files of a covered package that are not tests would be compiled
// uninstrumented, and races in them silently missed.
//
// So with coverage racegen also runs the go command with
//
//	-toolexec='RACEGEN [flags] coverexec OVERLAY.json'
//
// which runs every tool as it is but two:
//
//   - cover -V=full answers with racegen's identity added, so that the
//     compiles of covered packages, whose cache keys include it, are not
//     taken from builds that compiled them uninstrumented;
//   - a compile given cover's copies of files that the overlay replaces
//     instruments those copies and compiles the result.
//
// Coverage thus comes first and race detection second: cover reads the
// user's files, so the coverage profile's positions are the user's, and
// its copies begin with a //line comment naming the user's file, so the
// instrumenter's /*line*/ comments, and the race reports, do too. The
// coverage counters that cover adds get no hooks (they are not the
// program's memory), and in -covermode=atomic cover's calls to
// sync/atomic go through methods of the package, which racegen does not
// model as synchronization: otherwise every two goroutines that ran the
// same block would look ordered, and races between them would be missed.

// coverFlagNames are the go flags that turn coverage on.
var coverFlagNames = map[string]bool{"cover": true, "coverpkg": true, "covermode": true, "coverprofile": true}

// coverRequested reports whether the go command would build with
// coverage given g's flags or the GOFLAGS (environment or go env -w),
// and returns the -toolexec flag it was given, if any, which coverage
// cannot be combined with.
func coverRequested(g goArgs) (cover bool, toolexec string) {
	flags := append(splitQuoted(goEnv("GOFLAGS")), g.flags...)
	for _, a := range flags {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if coverFlagNames[strings.TrimPrefix(name, "test.")] {
			cover = true
		}
		if name == "toolexec" {
			toolexec = a
		}
	}
	return cover, toolexec
}

// coverToolexecFlag returns the -toolexec flag that makes a build with
// coverage instrument the files cover rewrites.
func coverToolexecFlag(cfg *config, out *output, toolexec string) (string, error) {
	if toolexec != "" {
		return "", fmt.Errorf("with -cover, racegen runs the go command's cover and compile steps through a -toolexec wrapper of its own, which cannot be combined with %s; drop one or the other", toolexec)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding racegen's executable: %w", err)
	}
	words := []string{exe,
		"-rate=" + strconv.FormatFloat(cfg.rate, 'g', -1, 64),
		"-mode=" + cfg.mode,
		"-seed=" + strconv.FormatInt(cfg.seed, 10),
		"-watch=" + cfg.watch.String(),
		"-watchpoints=" + cfg.watchpoints, // resolved by cfg.check: hw or sw
		"coverexec", out.overlay,
	}
	for i, w := range words {
		q, err := quoteField(w)
		if err != nil {
			return "", err
		}
		words[i] = q
	}
	return "-toolexec=" + strings.Join(words, " "), nil
}

// quoteField quotes s, if need be, as the go command splits -toolexec's
// value: at spaces, a field may be quoted whole with ' or ".
func quoteField(s string) (string, error) {
	if s != "" && !strings.ContainsAny(s, " \t\n\r'\"") {
		return s, nil
	}
	for _, q := range []string{"'", `"`} {
		if !strings.Contains(s, q) {
			return q + s + q, nil
		}
	}
	return "", fmt.Errorf("cannot quote %q for -toolexec", s)
}

// runCoverexec is racegen as the -toolexec wrapper of a build with
// coverage: args are the overlay.json of the build, the tool and its
// arguments.
func runCoverexec(cfg *config, args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintf(stderr, "racegen: coverexec: want OVERLAY.json TOOL [ARGS...]\n")
		return 2
	}
	tool, targs := args[1], args[2:]
	name := toolName(tool)
	var err error
	switch {
	case name == "cover" && len(targs) == 1 && targs[0] == "-V=full":
		err = toolVersion(cfg, tool, stdout, stderr)
	case name == "compile" && hasToolFlag(targs, "coveragecfg"):
		err = coverCompile(cfg, args[0], tool, targs, stdout, stderr)
	default:
		err = runTool(tool, targs, stdout, stderr)
	}
	return exitStatus(err, stderr)
}

// exitStatus is the exit status of racegen after running a tool.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(interface{ ExitCode() int }); ok {
		return ee.ExitCode() // the tool said why
	}
	fmt.Fprintf(stderr, "racegen: %v\n", err)
	return 1
}

// coverCompile runs a compile of a covered package. The files that cover
// copied from files the overlay replaces are instrumented; the others
// (the package's tests, which the overlay already replaced, and cover's
// variables) are compiled as they are.
func coverCompile(cfg *config, overlay, tool string, args []string, stdout, stderr io.Writer) error {
	first := len(args)
	for first > 0 && strings.HasSuffix(args[first-1], ".go") && !strings.HasPrefix(args[first-1], "-") {
		first--
	}
	flags, files := args[:first], args[first:]
	replace, err := readOverlay(overlay)
	if err != nil {
		return err
	}
	covered := map[int]string{} // index in files: the user's file cover copied
	for i, f := range files {
		if orig, ok := coverSource(f); ok && replace[orig] != "" {
			covered[i] = orig
		}
	}
	if len(covered) == 0 {
		return runTool(tool, args, stdout, stderr)
	}
	path := ""
	if i := flagIndex(flags, "p"); i >= 0 {
		path = flags[i]
	}
	icArg, ic, lang, err := compileInputs(path, flags)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(flags[icArg]), "racegen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	// In -covermode=atomic, cover's copies import sync/atomic as
	// _cover_atomic_; make that name a variable whose methods call
	// sync/atomic from a file racegen does not instrument.
	inputs := append([]string(nil), files...)
	atomicMode := false
	for i := range covered {
		src, err := os.ReadFile(files[i])
		if err != nil {
			return err
		}
		if s := string(src); strings.Contains(s, coverAtomicImport) {
			atomicMode = true
			src = []byte(strings.Replace(s, coverAtomicImport, "", 1))
		}
		inputs[i] = filepath.Join(tmp, "in", strconv.Itoa(i), filepath.Base(files[i]))
		if err := os.MkdirAll(filepath.Dir(inputs[i]), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(inputs[i], src, 0o666); err != nil {
			return err
		}
	}
	var helper string
	if atomicMode {
		pkgName, err := packageName(inputs[firstKey(covered)])
		if err != nil {
			return err
		}
		helper = filepath.Join(tmp, "racegen_cover_atomic.go")
		if err := os.WriteFile(helper, []byte(fmt.Sprintf(coverAtomicHelper, pkgName)), 0o666); err != nil {
			return err
		}
		inputs = append(inputs, helper)
	}

	p, err := typeCheck(path, lang, inputs, ic)
	if err != nil {
		// If the compiler fails too, its messages are the ones to read.
		if cerr := runTool(tool, args, stdout, stderr); cerr != nil {
			return cerr
		}
		return fmt.Errorf("type-checking %s: %w", path, err)
	}
	loc, err := analysis.Package(p.fset, p.files, p.pkg, p.info)
	if err != nil {
		return fmt.Errorf("analysing %s: %w", path, err)
	}
	var todo []*ast.File
	for i := range files {
		if _, ok := covered[i]; ok {
			todo = append(todo, p.files[i])
		}
	}
	_, module := findModule(filepath.Dir(covered[firstKey(covered)]))
	res, err := instrument.Package(p.fset, todo, p.pkg, p.info, &instrument.Config{
		Local:       func(e ast.Expr) bool { return mentionsCoverVar(e) || loc.Local(e) },
		LocalTarget: func(e ast.Expr) bool { return mentionsCoverVar(e) || loc.LocalTarget(e) },
		Mode:        cfg.mode,
		Rate:        cfg.rate,
		Seed:        cfg.seed,
		Checks:      cfg.watchpoints == "sw",
		Module:      module,
	})
	if err != nil {
		return err
	}
	newArgs := append([]string(nil), args...)
	for i, orig := range covered {
		src, ok := res.Files[inputs[i]]
		if !ok {
			return fmt.Errorf("%s: the instrumenter returned no file for %s", path, files[i])
		}
		// Like cover's copy, the result names the user's file, for what
		// precedes the instrumenter's first /*line*/ comment.
		src = append([]byte("//line "+orig+":1:1\n"), src...)
		name := filepath.Join(tmp, strconv.Itoa(i)+"_"+filepath.Base(files[i]))
		if err := os.WriteFile(name, src, 0o666); err != nil {
			return err
		}
		newArgs[first+i] = name
	}
	if helper != "" {
		newArgs = append(newArgs, helper)
	}
	return runTool(tool, newArgs, stdout, stderr)
}

// coverAtomicImport is what cover adds after the package clause of its
// copies in -covermode=atomic.
const coverAtomicImport = `; import _cover_atomic_ "sync/atomic"`

// coverAtomicHelper is the file, in package %s, that stands in for that
// import.
const coverAtomicHelper = `// Code generated by racegen; DO NOT EDIT.

package %s

import "sync/atomic"

// racegenCoverAtomic calls sync/atomic for cover's counters from code
// racegen does not instrument: a counter is not the program's memory, and
// its updates are no synchronization of the program's.
type racegenCoverAtomic struct{}

var _cover_atomic_ racegenCoverAtomic

func (racegenCoverAtomic) AddUint32(p *uint32, v uint32) uint32 { return atomic.AddUint32(p, v) }
func (racegenCoverAtomic) StoreUint32(p *uint32, v uint32)       { atomic.StoreUint32(p, v) }
func (racegenCoverAtomic) LoadUint32(p *uint32) uint32           { return atomic.LoadUint32(p) }
`

// mentionsCoverVar reports whether e refers to one of cover's counter
// variables (goCover_HASH_...) or to _cover_atomic_.
func mentionsCoverVar(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && (strings.HasPrefix(id.Name, "goCover_") || id.Name == "_cover_atomic_") {
			found = true
		}
		return !found
	})
	return found
}

// coverSource returns the user's file that cover copied into file, as
// named by the //line comment cover writes on the copy's first line.
func coverSource(file string) (string, bool) {
	if !strings.HasSuffix(file, ".cover.go") {
		return "", false
	}
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return "", false
	}
	name, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "//line ")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(name, ":1:1")
}

// readOverlay returns the Replace map of an overlay.json.
func readOverlay(name string) (map[string]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ov.Replace, nil
}

// packageName returns the name in the package clause of a Go file.
func packageName(file string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	return f.Name.Name, nil
}

// firstKey returns the smallest key of m, which is not empty.
func firstKey(m map[int]string) int {
	k := -1
	for i := range m {
		if k < 0 || i < k {
			k = i
		}
	}
	return k
}

// listEnv returns the environment for go/packages' go list, or nil for
// racegen's own: with coverage in GOFLAGS, go list -compiled -test runs
// the cover tool and fails, so that racegen's loads drop it (the build
// keeps it).
func listEnv() []string {
	fields := splitQuoted(goEnv("GOFLAGS"))
	var keep []string
	for _, f := range fields {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if strings.HasPrefix(f, "-") && coverFlagNames[strings.TrimPrefix(name, "test.")] {
			continue
		}
		if q, err := quoteField(f); err == nil {
			keep = append(keep, q)
		}
	}
	if len(keep) == len(fields) {
		return nil
	}
	return append(os.Environ(), "GOFLAGS="+strings.Join(keep, " "))
}
