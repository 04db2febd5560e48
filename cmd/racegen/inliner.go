package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/racegen/racegen/instrument"
)

// The Go compiler inlines a function whose body costs at most 80 in its
// inliner's budget, and a call of racegen's hooks costs what the hook's
// body costs. So an instrumented function of a few accesses is too
// expensive to inline where the uninstrumented one was inlined (racegen
// instrumented, 6,325 of the 8,377 functions of net/http's and
// encoding/json's dependencies that go build inlines stayed inlinable),
// and what inlining buys is lost: speed, but also escape analysis, since
// a value passed to a function that is not inlined escapes more often
// (bufio.NewReaderSize(bytes.NewReader(b), n) then allocates the
// bytes.Reader). go build -race instruments after inlining and has
// neither cost; the compiler already makes the same exception for
// coverage counters (inline.isAtomicCoverageCounterUpdate).
//
// racegen therefore compiles the packages it instruments with a copy of
// the toolchain's own compiler, built from its GOROOT's sources with one
// change to the inliner's cost model (inlinerPatch): a call of the
// detector runtime costs what its operands cost in the original
// expression, and the function's Ctx costs nothing. With it, 8,340 of
// those 8,377 functions inline, and the two sets differ by 142 and 105
// functions at the edge of the budget. The compiler is built once per
// toolchain, into racegen's directory in the build cache, and every
// other tool the build runs is the toolchain's own.

// inlinerVersion names the patch below; change it with the patch.
const inlinerVersion = "racegen-inliner-1"

// An inlinerEdit inserts text into the inliner's source at the single
// place anchor occurs, before or after it.
type inlinerEdit struct {
	anchor string
	text   string
	before bool
}

// inlinerPatch is the change to cmd/compile/internal/inline/inl.go. It
// is applied to the toolchain's own source and fails if an anchor is not
// found exactly once, in which case racegen uses the unchanged compiler.
var inlinerPatch = []inlinerEdit{
	{
		anchor: "\tcase ir.OCALLFUNC:\n\t\tn := n.(*ir.CallExpr)\n",
		text: `		if racegenHook(n) {
			// racegen: a hook costs what the operand it wraps
			// costs, so that instrumenting a function does not
			// change whether it inlines.
			refunded := false
			for _, a := range n.Args {
				if racegenAux(a) {
					// Visited for the locals it uses, free.
					b := v.budget
					if v.do(a) {
						return true
					}
					v.budget = b
					continue
				}
				if a.Op() == ir.OADDR && !refunded {
					// *R(&x, ...) is x: neither the dereference
					// nor the address is in the original.
					v.budget++
					refunded = true
					a = a.(*ir.AddrExpr).X
				}
				if v.do(a) {
					return true
				}
			}
			return false
		}
`,
	},
	{
		anchor: "\tcase ir.OAS:\n\t\t// Special case for coverage counter updates",
		before: true,
		text: `	case ir.ODCL:
		if racegenAux(n.(*ir.Decl).X) {
			return v.racegenFree(n) // racegen: a function's Ctx
		}

`,
	},
	{
		anchor: "\t\tn := n.(*ir.AssignStmt)\n\t\tif n.X.Op() == ir.OINDEX && isIndexingCoverageCounter(n.X) {",
		before: true,
		text: `		if as := n.(*ir.AssignStmt); as.Y == nil && racegenAux(as.X) {
			return v.racegenFree(n) // racegen: a function's Ctx zeroed
		}
`,
	},
	{
		anchor: "\nfunc isIndexingCoverageCounter(n ir.Node) bool {",
		before: true,
		text: `
// racegenHook reports whether n calls racegen's detector runtime.
func racegenHook(n *ir.CallExpr) bool {
	if n.Fun.Op() != ir.ONAME {
		return false
	}
	name := n.Fun.(*ir.Name)
	return name.Class == ir.PFUNC && name.Sym().Pkg.Path == racegenRuntime
}

// racegenAux reports whether n, an argument of a hook or a variable, is
// one that racegen adds: a constant (a site), a variable racegen
// declared or its address (the function's Ctx), or a generic hook's
// dictionary.
func racegenAux(n ir.Node) bool {
	if ir.IsConstNode(n) {
		return true
	}
	switch n.Op() {
	case ir.OCONV, ir.OCONVNOP:
		return ir.IsConstNode(n.(*ir.ConvExpr).X)
	case ir.OADDR:
		n = n.(*ir.AddrExpr).X
	}
	if n.Op() != ir.ONAME {
		return false
	}
	s := n.Sym()
	return strings.HasPrefix(s.Name, "racegen") || s.Pkg != nil && s.Pkg.Path == racegenRuntime
}

// racegenFree visits n's children for the locals they use, at no cost.
func (v *hairyVisitor) racegenFree(n ir.Node) bool {
	b := v.budget
	if ir.DoChildren(n, v.do) {
		return true
	}
	v.budget = b
	return false
}

const racegenRuntime = "` + instrument.RuntimePath + `"
`,
	},
}

// patchInliner applies inlinerPatch to the source of inl.go.
func patchInliner(src []byte) ([]byte, error) {
	s := string(src)
	for _, e := range inlinerPatch {
		switch n := strings.Count(s, e.anchor); n {
		case 1:
		case 0:
			return nil, fmt.Errorf("the inliner's source has no %q", firstLine(e.anchor))
		default:
			return nil, fmt.Errorf("the inliner's source has %d places %q", n, firstLine(e.anchor))
		}
		i := strings.Index(s, e.anchor)
		if !e.before {
			i += len(e.anchor)
		}
		s = s[:i] + e.text + s[i:]
	}
	return []byte(s), nil
}

func firstLine(s string) string {
	s = strings.TrimLeft(s, "\n\t")
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// inlinerSource is the file of the compiler's source that the patch
// changes, relative to GOROOT.
var inlinerSource = filepath.Join("src", "cmd", "compile", "internal", "inline", "inl.go")

// instrumentingCompiler returns the compiler that compiles instrumented
// packages: racegen's build of the compiler at tool, the toolchain's own,
// or tool itself if that cannot be built, after saying why once.
func instrumentingCompiler(cfg *config, tool string, stderr io.Writer) string {
	path, err := patchedCompiler(cfg, tool)
	if err == nil {
		return path
	}
	root, rerr := outRoot(cfg)
	if rerr == nil {
		// Say it once for all the compiles of a build, and again a
		// day later.
		mark := filepath.Join(root, "inliner-warning")
		if fi, serr := os.Stat(mark); serr == nil && time.Since(fi.ModTime()) < 24*time.Hour {
			return tool
		}
		os.WriteFile(mark, nil, 0o666)
	}
	fmt.Fprintf(stderr, "racegen: warning: %v; instrumented functions are compiled by the standard compiler, which inlines fewer of them\n", err)
	return tool
}

// patchedCompiler returns racegen's build of the compiler at tool
// (GOROOT/pkg/tool/GOOS_GOARCH/compile), building it on first use.
func patchedCompiler(cfg *config, tool string) (string, error) {
	goroot := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(tool))))
	src, err := os.ReadFile(filepath.Join(goroot, inlinerSource))
	if err != nil {
		return "", fmt.Errorf("building the compiler with racegen's inliner: %w", err)
	}
	patched, err := patchInliner(src)
	if err != nil {
		return "", fmt.Errorf("building the compiler with racegen's inliner: %w", err)
	}
	version, _ := os.ReadFile(filepath.Join(goroot, "VERSION"))
	root, err := outRoot(cfg)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s/%s\n%s\n", inlinerVersion, goroot, runtime.GOOS, runtime.GOARCH, version)
	h.Write(patched)
	dir := filepath.Join(root, "compile-"+hex.EncodeToString(h.Sum(nil))[:32])
	exe := filepath.Join(dir, "compile")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if _, err := os.Stat(exe); err == nil {
		return exe, nil
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(exe); err == nil {
		return exe, nil // built while we waited
	}
	if err := buildCompiler(goroot, dir, exe, patched); err != nil {
		return "", fmt.Errorf("building the compiler with racegen's inliner: %w", err)
	}
	return exe, nil
}

// buildCompiler builds the compiler of goroot with patched as its inliner
// into exe, through a temporary file in dir renamed into place.
func buildCompiler(goroot, dir, exe string, patched []byte) error {
	src := filepath.Join(dir, "inl.go")
	if err := os.WriteFile(src, patched, 0o666); err != nil {
		return err
	}
	overlay := filepath.Join(dir, "overlay.json")
	o := fmt.Sprintf(`{"Replace":{%q:%q}}`, filepath.Join(goroot, inlinerSource), src)
	if err := os.WriteFile(overlay, []byte(o), 0o666); err != nil {
		return err
	}
	tmp := exe + ".tmp"
	cmd := exec.Command(filepath.Join(goroot, "bin", "go"), "build", "-overlay="+overlay, "-o", tmp, "cmd/compile")
	cmd.Dir = filepath.Join(goroot, "src", "cmd")
	// The compiler runs here, whatever the build targets; nothing of the
	// user's build settings applies to it.
	cmd.Env = append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH,
		"CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "GOROOT="+goroot)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build cmd/compile: %v\n%s", err, out.Bytes())
	}
	return os.Rename(tmp, exe)
}

// lockDir creates dir if need be and takes its lock, a file created
// exclusively, waiting for another process that holds it; a lock older
// than ten minutes is taken to be left by a process that died.
func lockDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	name := filepath.Join(dir, "lock")
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
		if err == nil {
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > 10*time.Minute {
			os.Remove(name)
			continue
		}
		time.Sleep(100 * time.Millisecond)
	}
}
