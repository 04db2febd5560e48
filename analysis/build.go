package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Package runs the analysis on one type-checked package without the
// analysis driver. files and info must be those pkg was type-checked
// with, and info must record Types, Defs, Uses, Implicits, Instances,
// Selections, Scopes and FileVersions (as go/packages does).
//
// If the escape analysis cannot run on the package (for instance because
// SSA construction fails on it), Package returns a non-nil Locality that
// answers from the syntax alone (see Variables), together with an error
// saying why.
func Package(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) (l *Locality, err error) {
	if fset == nil || pkg == nil || info == nil {
		return &Locality{local: map[ast.Expr]bool{}}, fmt.Errorf("analysing package: missing file set, package or type information")
	}
	var vars *Variables
	defer func() {
		// go/ssa panics on input it cannot handle (for instance
		// packages with type errors); never let that reach the caller.
		if r := recover(); r != nil {
			l, err = &Locality{local: map[ast.Expr]bool{}}, fmt.Errorf("analysing package %s: %v", pkg.Path(), r)
			if vars != nil {
				l = newLocality(nil, vars, files, info)
			}
		}
	}()
	vars = NewVariables(files, pkg, info)
	fns, err := buildSSA(fset, files, pkg, info)
	if err != nil {
		return newLocality(nil, vars, files, info), fmt.Errorf("analysing package %s: %w", pkg.Path(), err)
	}
	s := newSolver(fns, outsideNames(files))
	if err := s.solve(); err != nil {
		return newLocality(nil, vars, files, info), fmt.Errorf("analysing package %s: %w", pkg.Path(), err)
	}
	return newLocality(s, vars, files, info), nil
}

// buildSSA builds pkg in SSA form with debug information, which gives
// every source expression that is evaluated an *ssa.DebugRef, and returns
// every function with a body the package's syntax gave rise to, closed
// under closures and the bound-method wrappers closures are made of.
func buildSSA(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) ([]*ssa.Function, error) {
	prog := ssa.NewProgram(fset, ssa.BuilderMode(0))
	seen := make(map[*types.Package]bool)
	var createImports func(p *types.Package)
	createImports = func(p *types.Package) {
		for _, imp := range p.Imports() {
			if !seen[imp] {
				seen[imp] = true
				prog.CreatePackage(imp, nil, nil, true)
				createImports(imp)
			}
		}
	}
	createImports(pkg)
	ssapkg := prog.CreatePackage(pkg, files, info, false)
	ssapkg.SetDebugMode(true)
	ssapkg.Build()

	var fns []*ssa.Function
	added := make(map[*ssa.Function]bool)
	var addFn func(fn *ssa.Function)
	addFn = func(fn *ssa.Function) {
		if fn == nil || added[fn] || len(fn.Blocks) == 0 {
			return
		}
		added[fn] = true
		fns = append(fns, fn)
		for _, anon := range fn.AnonFuncs {
			addFn(anon)
		}
	}
	addFn(ssapkg.Func("init"))
	for _, f := range files {
		for _, decl := range f.Decls {
			if decl, ok := decl.(*ast.FuncDecl); ok {
				if obj, ok := info.Defs[decl.Name].(*types.Func); ok {
					addFn(prog.FuncValue(obj))
				}
			}
		}
	}
	// Bound-method wrappers (x.M as a value) are closures over the
	// receiver; analysing them lets a method value keep its receiver
	// local.
	for i := 0; i < len(fns); i++ {
		for _, b := range fns[i].Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if fn, ok := mc.Fn.(*ssa.Function); ok {
						addFn(fn)
					}
				}
			}
		}
	}
	if len(fns) == 0 && len(files) > 0 {
		return nil, fmt.Errorf("no functions built")
	}
	return fns, nil
}

// outsideNames returns the names of the package-level functions and
// variables that code the analysis does not see may use: those named by
// //go:linkname or cgo //export directives. If the package declares a
// function without a body (implemented in assembly or pulled by
// linkname), its assembly may call any function and read or write any
// variable, and outsideNames returns nil, meaning all.
func outsideNames(files []*ast.File) map[string]bool {
	names := make(map[string]bool)
	for _, f := range files {
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body == nil {
				return nil
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				fields := strings.Fields(c.Text)
				if len(fields) >= 2 && (fields[0] == "//go:linkname" || fields[0] == "//export") {
					names[fields[1]] = true
				}
			}
		}
	}
	return names
}
