package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"runtime"

	"github.com/racegen/racegen/instrument"
)

// A checkedPackage is a parsed and type-checked package, as the analysis
// and the instrumenter want it.
type checkedPackage struct {
	fset  *token.FileSet
	files []*ast.File
	pkg   *types.Package
	info  *types.Info
}

// typeCheck parses and type-checks the package with import path path
// made of files, for the Go version lang ("go1.24"; "" for the
// toolchain's), importing its dependencies from the export data that
// the compile's importcfg names: the very archives the compiler reads.
// Code built with the race tag (raceTag; see racetag.go) sees package
// runtime with the functions of instrument.DeclareRaceFuncs.
func typeCheck(path, lang string, files []string, ic *importCfg, raceTag bool) (*checkedPackage, error) {
	fset := token.NewFileSet()
	p := &checkedPackage{fset: fset}
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		file, ok := ic.packageFile[path]
		if !ok {
			return nil, fmt.Errorf("no archive for %s in the compile's importcfg", path)
		}
		return os.Open(file)
	}
	goarch := os.Getenv("GOARCH") // set by the go command for its tools
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	var errs []error
	conf := &types.Config{
		GoVersion: lang,
		Importer:  mappedImporter{importer.ForCompiler(fset, "gc", lookup), ic, raceTag},
		Sizes:     types.SizesFor("gc", goarch),
		Error: func(err error) {
			if len(errs) < 10 {
				errs = append(errs, err)
			}
		},
	}
	p.info = newInfo()
	p.pkg, _ = conf.Check(path, fset, p.files, p.info)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// newInfo returns an empty types.Info with what racegen's analysis and
// instrumenter read (instrument.Package lists them), and FileVersions,
// for the Go version of each file.
func newInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		FileVersions: map[*ast.File]string{},
	}
}

// mappedImporter imports through the importcfg's importmap lines, which
// map the import paths written in the source to the packages a vendored
// or replaced path stands for.
// With raceTag set, it declares in runtime the functions that the race
// build tag adds (instrument.DeclareRaceFuncs); the importer is the
// compile's own, so no other type checker sees them.
type mappedImporter struct {
	imp     types.Importer
	ic      *importCfg
	raceTag bool
}

func (m mappedImporter) Import(path string) (*types.Package, error) {
	p, err := m.imp.Import(m.ic.resolve(path))
	if err == nil && m.raceTag && path == "runtime" {
		instrument.DeclareRaceFuncs(p)
	}
	return p, err
}
