package analysis_test

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	goanalysis "golang.org/x/tools/go/analysis"
)

// A loaded package is a parsed and type-checked package.
type loaded struct {
	fset  *token.FileSet
	files []*ast.File
	pkg   *types.Package
	info  *types.Info
}

// load parses and type-checks the package in dir (its files for the
// current build context), importing dependencies from export data.
// (The tests avoid go/packages so that they depend on nothing but
// go/analysis and go/ssa.)
func load(t *testing.T, fset *token.FileSet, imp types.Importer, dir, path string) *loaded {
	t.Helper()
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatalf("finding files of %s: %v", path, err)
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", path, err)
		}
		files = append(files, f)
	}
	info := newInfo()
	conf := types.Config{Importer: imp, GoVersion: "go1.26"}
	pkg, err := conf.Check(path, fset, files, info)
	if err != nil {
		t.Fatalf("type-checking %s: %v", path, err)
	}
	return &loaded{fset, files, pkg, info}
}

// loadSource parses src as the one file, p.go, of package p, and
// type-checks it for the Go version goVersion ("" for go/types' default),
// importing dependencies from export data.
func loadSource(t *testing.T, src, goVersion string) *loaded {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := newInfo()
	conf := types.Config{Importer: newImporter(fset), GoVersion: goVersion}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return &loaded{fset, []*ast.File{f}, pkg, info}
}

// newImporter returns an importer reading the standard library's export
// data through the go command.
func newImporter(fset *token.FileSet) types.Importer {
	return importer.ForCompiler(fset, "gc", nil)
}

// runAnalyzer runs a and, first, the analyzers it requires, on p, the way
// a driver does for a single package without facts from dependencies,
// and returns a's result.
func runAnalyzer(t *testing.T, a *goanalysis.Analyzer, p *loaded) any {
	t.Helper()
	results := make(map[*goanalysis.Analyzer]any)
	var exec func(a *goanalysis.Analyzer) (any, error)
	exec = func(a *goanalysis.Analyzer) (any, error) {
		if r, ok := results[a]; ok {
			return r, nil
		}
		pass := &goanalysis.Pass{
			Analyzer:          a,
			Fset:              p.fset,
			Files:             p.files,
			Pkg:               p.pkg,
			TypesInfo:         p.info,
			TypesSizes:        types.SizesFor("gc", "amd64"),
			ResultOf:          make(map[*goanalysis.Analyzer]any),
			Report:            func(goanalysis.Diagnostic) {},
			ImportObjectFact:  func(types.Object, goanalysis.Fact) bool { return false },
			ExportObjectFact:  func(types.Object, goanalysis.Fact) {},
			ImportPackageFact: func(*types.Package, goanalysis.Fact) bool { return false },
			ExportPackageFact: func(goanalysis.Fact) {},
			AllObjectFacts:    func() []goanalysis.ObjectFact { return nil },
			AllPackageFacts:   func() []goanalysis.PackageFact { return nil },
		}
		for _, req := range a.Requires {
			r, err := exec(req)
			if err != nil {
				return nil, err
			}
			pass.ResultOf[req] = r
		}
		r, err := a.Run(pass)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		results[a] = r
		return r, nil
	}
	r, err := exec(a)
	if err != nil {
		t.Fatalf("running %s on %s: %v", a.Name, p.pkg.Path(), err)
	}
	return r
}

func fileSource(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	return string(b)
}

// newInfo returns a types.Info recording everything the analysis reads.
func newInfo() *types.Info {
	return &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		Scopes:       make(map[ast.Node]*types.Scope),
		FileVersions: make(map[*ast.File]string),
	}
}
