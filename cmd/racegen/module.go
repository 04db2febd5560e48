package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/racegen/racegen"
	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// writeModule writes into tmp (to become dir) a copy of the main module's
// go.mod that requires the detector runtime from a local copy, its go.sum,
// and that copy: a module holding only racegen's runtime package, which
// imports nothing outside the standard library and so needs no go.sum
// entries.
func writeModule(mod *packages.Module, gomod []byte, tmp, dir string) error {
	f, err := modfile.Parse(mod.GoMod, gomod, nil)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", mod.GoMod, err)
	}
	rt := filepath.Join(dir, "rt")
	if err := f.AddRequire(racegenModule, "v0.0.0"); err != nil {
		return err
	}
	if err := f.AddReplace(racegenModule, "", rt, ""); err != nil {
		return err
	}
	// Relative replacements are resolved from the module root, which
	// -modfile leaves where it was, so they stay valid.
	out, err := f.Format()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), out, 0o666); err != nil {
		return err
	}
	sum, err := os.ReadFile(strings.TrimSuffix(mod.GoMod, ".mod") + ".sum")
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.sum"), sum, 0o666); err != nil {
		return err
	}
	return writeRuntime(filepath.Join(tmp, "rt"))
}

// runtimeGoVersion is the go line of the detector runtime's module: the
// oldest language version its source compiles as (the runtime is
// compiled with -lang set from it). It is not racegen's own go version:
// since Go 1.21 the go command refuses to build a module whose go line
// is older than a dependency's ("updates to go.mod needed"), so racegen
// cannot build a module whose go line is older than this one (the tests
// build modules that say go 1.24). TestRuntimeGoVersion checks that it
// is no newer than racegen's own.
const runtimeGoVersion = "1.24"

// writeRuntime writes the detector runtime's module into dir.
func writeRuntime(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "runtime"), 0o777); err != nil {
		return err
	}
	gomod := "module " + racegenModule + "\n\ngo " + runtimeGoVersion + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o666); err != nil {
		return err
	}
	return fs.WalkDir(racegen.RuntimeFS, "runtime", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(name, "_test.go") {
			return err
		}
		src, err := racegen.RuntimeFS.ReadFile(name)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "runtime", path.Base(name)), src, 0o666)
	})
}
