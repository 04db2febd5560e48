package instrument

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// stdPackages are type-checked after rewriting by TestStd: a spread of
// real code outside the runtime's dependency closure. RACEGEN_STD=all
// checks every standard package instead.
var stdPackages = []string{
	"bufio", "bytes", "strings", "strconv", "encoding/json", "encoding/xml",
	"encoding/binary", "encoding/csv", "text/template", "text/template/parse",
	"html/template", "regexp", "regexp/syntax", "compress/flate", "compress/gzip",
	"archive/tar", "archive/zip", "go/parser", "go/printer", "go/types", "go/scanner",
	"net/http", "net/url", "net/textproto", "mime/multipart", "image/png", "image/jpeg",
	"crypto/tls", "crypto/x509", "database/sql", "container/heap", "container/list",
	"sort", "slices", "maps", "math/big", "log/slog", "flag", "expvar", "context",
	"net/rpc", "testing/fstest", "debug/elf", "index/suffixarray", "path/filepath",
	"syscall", "iter", "testing", "reflect", "os", "time",
}

// TestStd rewrites standard packages and type-checks the output against
// the original dependencies and the runtime: the rewriter must produce Go
// that compiles on real code.
func TestStd(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks much of the standard library")
	}
	patterns := stdPackages
	if os.Getenv("RACEGEN_STD") == "all" {
		patterns = []string{"std"}
	}
	cfg := &packages.Config{Mode: loadMode}
	pkgs, err := packages.Load(cfg, append([]string{RuntimePath}, patterns...)...)
	if err != nil {
		t.Fatal(err)
	}
	var rt *packages.Package
	for _, p := range pkgs {
		if p.PkgPath == RuntimePath {
			rt = p
		}
	}
	if rt == nil {
		t.Fatal("runtime not loaded")
	}
	closure := map[string]bool{}
	var walk func(p *packages.Package)
	walk = func(p *packages.Package) {
		if closure[p.PkgPath] {
			return
		}
		closure[p.PkgPath] = true
		for _, q := range p.Imports {
			walk(q)
		}
	}
	walk(rt)
	sites, checked := 0, 0
	for _, p := range pkgs {
		if p == rt || closure[p.PkgPath] || len(p.Errors) > 0 || strings.HasPrefix(p.PkgPath, "runtime") ||
			strings.Contains(p.PkgPath, "internal") || strings.HasPrefix(p.PkgPath, "vendor/") ||
			p.PkgPath == "unsafe" || p.PkgPath == "builtin" || len(p.Syntax) == 0 {
			continue
		}
		if hasCgo(p) {
			continue // cgo files are type-checked after cgo processing
		}
		res, err := Package(p.Fset, p.Syntax, p.Types, p.TypesInfo, nil)
		if err != nil {
			t.Errorf("%s: %v", p.PkgPath, err)
			continue
		}
		sites += res.Sites
		checked++
		if err := typeCheck(p, rt, res); err != nil {
			t.Errorf("%s: %v", p.PkgPath, err)
		}
	}
	t.Logf("%d packages, %d sites", checked, sites)
}

func hasCgo(p *packages.Package) bool {
	for _, f := range p.Syntax {
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				return true
			}
		}
	}
	return false
}

// typeCheck parses the rewritten files of p and type-checks them.
func typeCheck(p *packages.Package, rt *packages.Package, res *Result) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, f := range p.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		src, ok := res.Files[name]
		if !ok {
			return fmt.Errorf("no output for %s", name)
		}
		af, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return fmt.Errorf("parsing output: %v", err)
		}
		files = append(files, af)
	}
	var errs []string
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == RuntimePath {
				return rt.Types, nil
			}
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if q, ok := p.Imports[path]; ok {
				return q.Types, nil
			}
			return importer.Default().Import(path)
		}),
		GoVersion: p.TypesInfo.FileVersions[p.Syntax[0]],
		Error: func(err error) {
			if len(errs) < 5 {
				errs = append(errs, err.Error())
			}
		},
	}
	conf.Check(p.PkgPath, fset, files, nil)
	if len(errs) > 0 {
		return fmt.Errorf("rewritten code does not type-check:\n\t%s", strings.Join(errs, "\n\t"))
	}
	return nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// TestRaceAnnotations rewrites the standard packages that annotate their
// synchronization for go build -race (see annotations.go) and checks that
// every use of internal/race became a hook with the same meaning.
func TestRaceAnnotations(t *testing.T) {
	if testing.Short() {
		t.Skip("loads standard packages")
	}
	want := map[string][]string{
		"syscall": {"racegenrt.SyscallAcquire(", "racegenrt.SyscallReleaseMerge(", "racegenrt.WriteRange(unsafe.Pointer(", "racegenrt.ReadRange(unsafe.Pointer("},
		"iter":    {"racegenrt.Acquire(", "racegenrt.Release(", "racegenrt.Write(unsafe.Pointer("},
		"testing": {"racegenrt.Races()"},
		"reflect": {"racegenrt.ReadPC(unsafe.Pointer("},
	}
	// Package syscall's I/O takes hooks of its own (syscallHooks).
	absent := map[string][]string{
		"syscall": {"racegenrt.Acquire(", "racegenrt.ReleaseMerge("},
	}
	var patterns []string
	for p := range want {
		patterns = append(patterns, p)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		res, err := Package(p.Fset, p.Syntax, p.Types, p.TypesInfo, nil)
		if err != nil {
			t.Errorf("%s: %v", p.PkgPath, err)
			continue
		}
		var all strings.Builder
		for name, src := range res.Files {
			all.Write(src)
			// Nothing uses internal/race any more: the rewriter
			// blanks the imports it left unused.
			f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, imp := range f.Imports {
				if imp.Path.Value == `"internal/race"` && (imp.Name == nil || imp.Name.Name != "_") {
					t.Errorf("%s: the rewritten file still uses internal/race", name)
				}
			}
		}
		for _, w := range want[p.PkgPath] {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: rewritten code lacks %s", p.PkgPath, w)
			}
		}
		for _, w := range absent[p.PkgPath] {
			if strings.Contains(all.String(), w) {
				t.Errorf("%s: rewritten code calls %s", p.PkgPath, w)
			}
		}
	}
}

// TestRuntimeFuncModels rewrites package reflect and checks that its
// calls of the functions the runtime implements for it are modelled, and
// that every model names a function the package declares without a body.
func TestRuntimeFuncModels(t *testing.T) {
	if testing.Short() {
		t.Skip("loads standard packages")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode}, "reflect", "internal/reflectlite")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for name := range runtimeFuncModels {
			path, fn, _ := strings.Cut(name, ".")
			if path != p.PkgPath {
				continue
			}
			obj, ok := p.Types.Scope().Lookup(fn).(*types.Func)
			if !ok {
				t.Errorf("%s: no function %s: the model is stale", p.PkgPath, fn)
				continue
			}
			for _, f := range p.Syntax {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && p.TypesInfo.Defs[fd.Name] == obj && fd.Body != nil {
						t.Errorf("%s.%s has a body: it is not the runtime's", p.PkgPath, fn)
					}
				}
			}
		}
		res, err := Package(p.Fset, p.Syntax, p.Types, p.TypesInfo, nil)
		if err != nil {
			t.Fatalf("%s: %v", p.PkgPath, err)
		}
		var all strings.Builder
		for _, src := range res.Files {
			all.Write(src)
		}
		if p.PkgPath == "reflect" {
			for _, want := range []string{"racegenrt.WriteRange(p1, p0.Size_", "racegenrt.ChanPreSend(p0,", "racegenrt.Write(p1, 1"} {
				if !strings.Contains(all.String(), want) {
					t.Errorf("reflect: rewritten code lacks %s", want)
				}
			}
		}
	}
}

// TestEntryHooks rewrites package os and checks that os.Exit asks the
// runtime for its status first.
func TestEntryHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("loads standard packages")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode}, "os")
	if err != nil {
		t.Fatal(err)
	}
	p := pkgs[0]
	res, err := Package(p.Fset, p.Syntax, p.Types, p.TypesInfo, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, src := range res.Files {
		if strings.Contains(string(src), "code = racegenrt.ExitCode(code)") {
			found = true
		}
	}
	if !found {
		t.Errorf("os.Exit does not start with code = racegenrt.ExitCode(code)")
	}
}
