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

// writeRuntime writes the detector runtime's module into dir.
func writeRuntime(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "runtime"), 0o777); err != nil {
		return err
	}
	gomod := "module " + racegenModule + "\n\ngo 1.24\n"
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
