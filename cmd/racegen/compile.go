package main

import (
	"fmt"
	"go/ast"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/racegen/racegen/instrument"
)

// toolexecCompile runs a compile command of the go command, on rewritten
// files if the package is instrumented (see policy.go). The rewritten
// files and the importcfg that adds the detector runtime go to a
// temporary directory next to the compile's importcfg, in the go
// command's work directory.
func toolexecCompile(cfg *config, tool string, args []string, stdout, stderr io.Writer) error {
	flags, files := splitCompileArgs(args)
	path := compileImportPath(flags)
	if len(files) == 0 {
		return runTool(tool, args, stdout, stderr)
	}
	archives, err := runtimeArchives(cfg, filepath.Dir(tool))
	if err != nil {
		return err
	}
	sc, why := cfg.policy(archives).scopeOf(path, hasToolFlag(flags, "std"))
	if sc == scopeNone {
		if cfg.verbose && why != "" && !hasToolFlag(flags, "std") {
			fmt.Fprintf(stderr, "racegen: %s: %s; not instrumented\n", path, why)
		}
		return runTool(tool, args, stdout, stderr)
	}
	if hasToolFlag(flags, "race") {
		return fmt.Errorf("%s: -race builds Go's own race detector; racegen replaces it", path)
	}
	if hasToolFlag(flags, "pgoprofile") {
		return fmt.Errorf("%s: profile-guided optimization (-pgo, or a default.pgo in the main package) is not supported with racegen; build with -pgo=off", path)
	}
	icArg, ic, lang, err := compileInputs(path, flags)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(flags[icArg]), "racegen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	unit, err := newCompileUnit(tmp, files)
	if err != nil {
		return err
	}
	// Outside the standard library, files may be those of the race
	// build tag (racetag.go).
	p, err := typeCheck(variantBase(path), lang, unit.inputs, ic, !hasToolFlag(flags, "std"))
	if err != nil {
		// If the compiler fails too, its messages are the ones to read.
		if cerr := runTool(tool, args, stdout, stderr); cerr != nil {
			return cerr
		}
		return fmt.Errorf("type-checking %s: %w", path, err)
	}
	var todo []*ast.File
	for i, f := range p.files {
		if unit.rewrite[i] {
			todo = append(todo, f)
		}
	}
	res, err := rewritePackage(cfg, path, p, todo, sc, unit.local)
	if err != nil {
		return err
	}
	if cfg.verbose {
		st := resultStats(cfg, res)
		if cfg.mode != instrument.Dynamic {
			for _, s := range st.sampledSites {
				fmt.Fprintf(stderr, "racegen: sampled %s\n", s)
			}
		}
		msg := st.String()
		if sc == scopeSync {
			msg = why
		}
		fmt.Fprintf(stderr, "racegen: %s: %s\n", path, msg)
	}
	ic.addPackageFile(instrument.RuntimePath, archives[instrument.RuntimePath])

	newArgs := append([]string(nil), flags...)
	if v, ok := langForHooks(lang); ok {
		newArgs = setToolFlag(newArgs, "lang", v)
	}
	for i, f := range files {
		name := f
		if unit.rewrite[i] {
			src, ok := res.Files[unit.inputs[i]]
			if !ok {
				return fmt.Errorf("%s: the instrumenter returned no file for %s", path, f)
			}
			name = filepath.Join(tmp, fmt.Sprintf("%d_%s", i, filepath.Base(f)))
			if err := os.WriteFile(name, unit.header(i, src), 0o666); err != nil {
				return err
			}
		} else if unit.inputs[i] != f {
			name = unit.inputs[i]
		}
		newArgs = append(newArgs, name)
	}
	newArgs = append(newArgs, unit.extra...)
	icName := filepath.Join(tmp, "importcfg")
	if err := os.WriteFile(icName, ic.bytes(), 0o666); err != nil {
		return err
	}
	newArgs[flagIndex(newArgs, "importcfg")] = icName
	return runTool(instrumentingCompiler(cfg, tool, stderr), newArgs, stdout, stderr, coldHooksSetting(cfg))
}

// splitCompileArgs splits a compile command's arguments into its flags
// and the Go files it compiles, which come last.
func splitCompileArgs(args []string) (flags, files []string) {
	first := len(args)
	for first > 0 && strings.HasSuffix(args[first-1], ".go") && !strings.HasPrefix(args[first-1], "-") {
		first--
	}
	return args[:first], args[first:]
}

// compileImportPath returns the import path of the package a compile
// command builds: the go command names it, with its test variant, in
// TOOLEXEC_IMPORTPATH ("p [p.test]"); -p gives "main" for commands.
func compileImportPath(flags []string) string {
	if p := os.Getenv("TOOLEXEC_IMPORTPATH"); p != "" {
		return p
	}
	if i := flagIndex(flags, "p"); i >= 0 {
		return flags[i]
	}
	return ""
}

// variantBase returns the import path of the package whose variant the
// go command names path: "p" for the test variant "p [p.test]". The
// package's symbols, and so its tracebacks, carry that path, and the
// type checker is given it, so that the instrumenter names the
// package's functions in its sites as a traceback does.
func variantBase(path string) string {
	base, _, _ := strings.Cut(path, " ")
	return base
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

// setToolFlag returns args with the tool flag -name set to value, in
// whichever spelling args has it, or added.
func setToolFlag(args []string, name, value string) []string {
	for i, a := range args {
		switch {
		case a == "-"+name && i+1 < len(args):
			args[i+1] = value
			return args
		case strings.HasPrefix(a, "-"+name+"="):
			args[i] = "-" + name + "=" + value
			return args
		}
	}
	return append(args, "-"+name+"="+value)
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

// langForHooks returns the -lang to compile a rewritten package with, and
// true, when its own is too old for the code racegen adds: the hooks are
// generic functions, which need go1.18. Such a package is compiled with
// go1.21 instead, the newest version whose semantics are those of every
// version before it: the one change of meaning that a language version
// selects, per-iteration loop variables, comes with go1.22. Everything
// between adds to the language without changing what valid code means,
// and the package was type-checked at its own version first.
func langForHooks(lang string) (string, bool) {
	minor, ok := langMinor(lang)
	if !ok || minor >= 18 {
		return "", false
	}
	return "go1.21", true
}

// langMinor returns N of a language version "go1.N" (or "go1.N.P").
func langMinor(lang string) (int, bool) {
	rest, ok := strings.CutPrefix(lang, "go1.")
	if !ok {
		return 0, false
	}
	rest, _, _ = strings.Cut(rest, ".")
	n, err := strconv.Atoi(rest)
	return n, err == nil
}
