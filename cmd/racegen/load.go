package main

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loadMode is what instrumenting a package needs: its syntax and types.
// Dependencies are type-checked from export data, not loaded.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo |
	packages.NeedImports | packages.NeedModule | packages.NeedForTest

// graphMode is enough to find the packages of the main module that a build
// involves and the files they are made of, without parsing anything.
const graphMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedEmbedFiles |
	packages.NeedForTest

func loadConfig(mode packages.LoadMode, sub string, g goArgs) *packages.Config {
	cfg := &packages.Config{Mode: mode, Tests: sub == "test", Dir: g.dir}
	if g.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + g.tags}
	}
	cfg.Env = listEnv()
	return cfg
}

// mainPackages loads the build's package graph and returns the packages
// of the main module in it, one variant per import path: the test variant
// ("p [p.test]") where there is one, since its files include the others'.
func mainPackages(sub string, g goArgs) ([]*packages.Package, *packages.Module, error) {
	roots, err := packages.Load(loadConfig(graphMode, sub, g), g.patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading %s: %w", strings.Join(g.patterns, " "), err)
	}
	if err := packageErrors(roots); err != nil {
		return nil, nil, err
	}
	var mod *packages.Module
	byPath := map[string]*packages.Package{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Module == nil || !p.Module.Main || strings.HasSuffix(p.PkgPath, ".test") {
			return
		}
		mod = p.Module
		if q, ok := byPath[p.PkgPath]; !ok || len(p.GoFiles) > len(q.GoFiles) {
			byPath[p.PkgPath] = p
		}
	})
	if mod == nil {
		return nil, nil, fmt.Errorf("no package of the main module matches %s", strings.Join(g.patterns, " "))
	}
	pkgs := make([]*packages.Package, 0, len(byPath))
	for _, p := range byPath {
		pkgs = append(pkgs, p)
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int { return strings.Compare(a.ID, b.ID) })
	return pkgs, mod, nil
}

// loadSyntax loads the syntax and types of the packages with the import
// paths of want, choosing for each path the variant with the most files,
// as mainPackages did. External test packages (p_test) cannot be named
// by import path; they come with the patterns that named p.
func loadSyntax(sub string, g goArgs, want []*packages.Package) ([]*packages.Package, error) {
	patterns := slices.Clone(g.patterns)
	paths := map[string]bool{}
	for _, p := range want {
		paths[p.PkgPath] = true
		if !isXTest(p) {
			patterns = append(patterns, p.PkgPath)
		}
	}
	loaded, err := packages.Load(loadConfig(loadMode, sub, g), patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading syntax: %w", err)
	}
	if err := packageErrors(loaded); err != nil {
		return nil, err
	}
	best := map[string]*packages.Package{}
	for _, p := range loaded {
		if !paths[p.PkgPath] || p.Syntax == nil {
			continue
		}
		if q := best[p.PkgPath]; q == nil || len(p.CompiledGoFiles) > len(q.CompiledGoFiles) {
			best[p.PkgPath] = p
		}
	}
	var out []*packages.Package
	var missing []string
	for _, p := range want {
		if q := best[p.PkgPath]; q != nil {
			out = append(out, q)
		} else {
			missing = append(missing, p.ID)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("loading syntax: no syntax for %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// isXTest reports whether p is an external test package, "p_test [p.test]".
func isXTest(p *packages.Package) bool {
	return strings.HasSuffix(p.PkgPath, "_test") && p.ForTest != ""
}

// packageErrors returns the errors of the packages in the graph of roots,
// so that racegen reports a broken build as go build would, before
// instrumenting anything.
func packageErrors(roots []*packages.Package) error {
	var msgs []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) == 0 {
		return nil
	}
	slices.Sort(msgs)
	msgs = slices.Compact(msgs)
	if len(msgs) > 10 {
		msgs = append(msgs[:10], fmt.Sprintf("and %d more errors", len(msgs)-10))
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}

// usesCgo reports whether p's compiled files differ from its Go files,
// which is how go/packages shows a package processed by cgo.
func usesCgo(p *packages.Package) bool {
	return !slices.Equal(p.GoFiles, p.CompiledGoFiles)
}
