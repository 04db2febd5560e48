package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/racegen/racegen/instrument"
	"golang.org/x/mod/modfile"
)

// toolexecCompile runs a compile command of the go command, on rewritten
// files if racegen instruments the package (see compilePolicy). The
// rewritten files and the importcfg that adds the detector runtime go to
// a temporary directory next to the compile's importcfg, in the go
// command's work directory.
func toolexecCompile(cfg *config, tool string, args []string, stdout, stderr io.Writer) error {
	first := len(args)
	for first > 0 && strings.HasSuffix(args[first-1], ".go") && !strings.HasPrefix(args[first-1], "-") {
		first--
	}
	flags, files := args[:first], args[first:]
	path, module, why := compilePolicy(flags, files)
	if module == "" && hasToolFlag(flags, "coveragecfg") && inMainModule(path) {
		// The go command compiles copies that cover rewrote in its work
		// directory, which are not the main module's files.
		return fmt.Errorf("%s: built with -cover, whose rewritten files racegen toolexec cannot instrument; build without -cover, or use racegen build|test|run -cover", path)
	}
	if module == "" {
		if cfg.verbose && why != "" {
			fmt.Fprintf(stderr, "racegen: %s: %s; not instrumented\n", path, why)
		}
		return runTool(tool, args, stdout, stderr)
	}
	if hasToolFlag(flags, "race") {
		return fmt.Errorf("%s: -race builds Go's own race detector; racegen replaces it", path)
	}
	if hasToolFlag(flags, "pgoprofile") {
		return fmt.Errorf("%s: profile-guided optimization (-pgo, or a default.pgo in the main package) is not supported in toolexec mode; build with -pgo=off", path)
	}
	icArg, ic, lang, err := compileInputs(path, flags)
	if err != nil {
		return err
	}
	p, err := typeCheck(path, lang, files, ic)
	if err != nil {
		// If the compiler fails too, its messages are the ones to read.
		if cerr := runTool(tool, args, stdout, stderr); cerr != nil {
			return cerr
		}
		return fmt.Errorf("type-checking %s: %w", path, err)
	}
	res, err := rewritePackage(cfg, path, p.fset, p.files, p.pkg, p.info, module)
	if err != nil {
		return err
	}
	if cfg.verbose {
		st := resultStats(cfg, res)
		if cfg.mode != "dynamic" {
			for _, s := range st.sampledSites {
				fmt.Fprintf(stderr, "racegen: sampled %s\n", s)
			}
		}
		fmt.Fprintf(stderr, "racegen: %s: %s\n", os.Getenv("TOOLEXEC_IMPORTPATH"), st)
	}
	archives, err := runtimeArchives(cfg, filepath.Dir(tool))
	if err != nil {
		return err
	}
	ic.addPackageFile(instrument.RuntimePath, archives[instrument.RuntimePath])

	tmp, err := os.MkdirTemp(filepath.Dir(flags[icArg]), "racegen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	newArgs := append([]string(nil), args...)
	for i, f := range files {
		src, ok := res.Files[f]
		if !ok {
			return fmt.Errorf("%s: the instrumenter returned no file for %s", path, f)
		}
		name := filepath.Join(tmp, filepath.Base(f))
		if err := os.WriteFile(name, src, 0o666); err != nil {
			return err
		}
		newArgs[first+i] = name
	}
	icName := filepath.Join(tmp, "importcfg")
	if err := os.WriteFile(icName, ic.bytes(), 0o666); err != nil {
		return err
	}
	newArgs[icArg] = icName
	return runTool(tool, newArgs, stdout, stderr)
}

// compilePolicy applies racegen build's choice of packages to a compile
// command with the given flags and Go files: racegen instruments the
// packages of the main module, tests included, apart from those that use
// cgo. The main module is the one the go command runs in, whose go.mod is
// nearest above its working directory, which is the compile's. A package
// belongs to it if its files are in one directory whose nearest go.mod is
// the main module's and its import path is the one that directory has in
// the module (or that path with _test, or command-line-arguments). The
// standard library and the detector runtime are never instrumented.
//
// compilePolicy returns the package's import path, and the main module's
// path if racegen instruments the package; otherwise, module is empty and
// why, if not empty, says why a main-module package is left alone.
func compilePolicy(flags, files []string) (path, module, why string) {
	path, _, _ = strings.Cut(os.Getenv("TOOLEXEC_IMPORTPATH"), " ") // "p [p.test]"
	if path == "" {
		if i := flagIndex(flags, "p"); i >= 0 {
			path = flags[i]
		}
	}
	if hasToolFlag(flags, "std") || len(files) == 0 ||
		path == instrument.RuntimePath || strings.HasPrefix(path, instrument.RuntimePath+"/") {
		return path, "", ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return path, "", ""
	}
	root, modPath := findModule(wd)
	if root == "" {
		return path, "", ""
	}
	dir := filepath.Dir(files[0])
	if r, _ := findModule(dir); r != root {
		return path, "", "" // a dependency, or a file the go command made
	}
	for _, f := range files {
		if filepath.Dir(f) != dir {
			// cgo and -cover compile files the go command generated.
			return path, "", "compiles files the go command generated (cgo or -cover)"
		}
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return path, "", ""
	}
	want := modPath
	if rel != "." {
		want += "/" + filepath.ToSlash(rel)
	}
	if path != want && path != want+"_test" && path != "command-line-arguments" {
		return path, "", "" // a vendored package
	}
	return path, modPath, ""
}

// inMainModule reports whether import path is under the path of the
// module of the working directory.
func inMainModule(path string) bool {
	wd, err := os.Getwd()
	if err != nil {
		return false
	}
	_, mod := findModule(wd)
	return mod != "" && (path == mod || strings.HasPrefix(path, mod+"/") || path == mod+"_test")
}

// findModule returns the directory of the go.mod file nearest above dir,
// and the module path it declares, or "", "" if there is none or it
// declares none.
func findModule(dir string) (root, path string) {
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			if p := modfile.ModulePath(data); p != "" {
				return dir, p
			}
			return "", ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		dir = parent
	}
}

// hasToolFlag reports whether args, a tool's flags, include -name, alone
// or with a value.
func hasToolFlag(args []string, name string) bool {
	for _, a := range args {
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && n == name {
			return true
		}
	}
	return false
}

// compileInputs returns what a compile command says about its package's
// imports and language version: the index in flags of the -importcfg
// file's name, that file read, and the -lang value, if any.
func compileInputs(path string, flags []string) (icArg int, ic *importCfg, lang string, err error) {
	icArg = flagIndex(flags, "importcfg")
	if icArg < 0 {
		return 0, nil, "", fmt.Errorf("%s: compile command has no -importcfg", path)
	}
	if ic, err = readImportCfg(flags[icArg]); err != nil {
		return 0, nil, "", err
	}
	if i := flagIndex(flags, "lang"); i >= 0 {
		lang = flags[i]
	}
	for _, a := range flags {
		if v, ok := strings.CutPrefix(a, "-lang="); ok {
			lang = v
		}
	}
	return icArg, ic, lang, nil
}
