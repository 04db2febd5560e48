package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/racegen/racegen"
)

// racegenModule is the module path of racegen, whose runtime package the
// instrumented code imports.
const racegenModule = "github.com/racegen/racegen"

// doneFile marks a complete output directory.
const doneFile = "done"

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
