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
)

// racegenModule is the module path of racegen, whose runtime package the
// instrumented code imports.
const racegenModule = "github.com/racegen/racegen"

// doneFile marks a complete output directory.
const doneFile = "done"

// runtimeGoVersion returns the go line of the detector runtime's module:
// racegen's own, as the source is the same. No user module depends on
// the runtime's module (racegen builds it alone and links it into the
// program), so its version constrains nobody's go line.
func runtimeGoVersion() (string, error) {
	v := modfile.ModulePath(racegen.GoMod)
	f, err := modfile.ParseLax("go.mod", racegen.GoMod, nil)
	if err != nil || f.Go == nil || v != racegenModule {
		return "", fmt.Errorf("racegen's embedded go.mod has no go line (%v)", err)
	}
	return f.Go.Version, nil
}

// writeRuntime writes the detector runtime's module into dir.
func writeRuntime(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "runtime"), 0o777); err != nil {
		return err
	}
	v, err := runtimeGoVersion()
	if err != nil {
		return err
	}
	gomod := "module " + racegenModule + "\n\ngo " + v + "\n"
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
