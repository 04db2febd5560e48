package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// This file holds what racegen does before the go command runs: the
// build|test|run forms and the printed flags turn racegen's flags into
// the -toolexec flag that makes racegen the go command's wrapper.

// executable returns the path of the racegen executable the go command
// is to run as its wrapper. Tests that run racegen in their own process
// point it at a racegen binary.
var executable = os.Executable

// wrapperWords returns the command line, as words, with which the go
// command is to run racegen as its -toolexec wrapper for cfg: racegen's
// own executable and every flag that reaches the wrapper, resolved (the
// watchpoint kind, the output directory).
func wrapperWords(cfg *config) ([]string, error) {
	exe, err := executable()
	if err != nil {
		return nil, fmt.Errorf("finding racegen's executable: %w", err)
	}
	words := []string{exe,
		"-rate=" + strconv.FormatFloat(cfg.rate, 'g', -1, 64),
		"-mode=" + cfg.mode.String(),
		"-seed=" + strconv.FormatInt(cfg.seed, 10),
		"-watch=" + cfg.watch.String(),
		"-watchpoints=" + cfg.watchpoints, // resolved by cfg.check: hw or sw
	}
	if len(cfg.access) > 0 {
		words = append(words, "-accesspkg="+strings.Join(cfg.access, ","))
	}
	if cfg.fresa {
		words = append(words, "-fresa")
	}
	if cfg.profile != "" {
		words = append(words, "-profile="+cfg.profile)
	}
	if cfg.outDir != "" {
		dir, err := filepath.Abs(cfg.outDir)
		if err != nil {
			return nil, err
		}
		words = append(words, "-o="+dir)
	}
	if cfg.verbose {
		words = append(words, "-v")
	}
	return append(words, "toolexec"), nil
}

// toolexecFlag returns the go flag -toolexec='racegen ... toolexec' for
// cfg, quoted as the go command splits it.
func toolexecFlag(cfg *config) (string, error) {
	words, err := wrapperWords(cfg)
	if err != nil {
		return "", err
	}
	for i, w := range words {
		q, err := quoteField(w)
		if err != nil {
			return "", err
		}
		words[i] = q
	}
	return "-toolexec=" + strings.Join(words, " "), nil
}

// quoteField quotes s, if need be, as the go command splits -toolexec's
// value: at spaces, a field may be quoted whole with ' or ".
func quoteField(s string) (string, error) {
	if s != "" && !strings.ContainsAny(s, " \t\n\r'\"") {
		return s, nil
	}
	for _, q := range []string{"'", `"`} {
		if !strings.Contains(s, q) {
			return q + s + q, nil
		}
	}
	return "", fmt.Errorf("cannot quote %q for -toolexec", s)
}

// printFlags is the form racegen [flags] packages...: it prints the go
// flags that build with racegen. A shell splits $(racegen ...) at spaces,
// which would cut a -toolexec value of several words, so the wrapper's
// command line goes into a small script under the output root, named by
// its contents, and the printed flag names the script. The packages are
// listed by the go command first, so that a mistyped pattern fails here
// as it would in go build.
func printFlags(cfg *config, g goArgs, stdout, stderr io.Writer) int {
	if err := listPackages(g); err != nil {
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 1
	}
	script, err := wrapperScript(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 1
	}
	if strings.ContainsAny(script, " \t\n'\"") {
		fmt.Fprintf(stderr, "racegen: the wrapper's path %q has spaces or quotes, which the go command cannot take in -toolexec; choose another directory with -o\n", script)
		return 1
	}
	flags := []string{"-toolexec=" + script}
	if !g.has("pgo") {
		flags = append(flags, "-pgo=off")
	}
	// The flags may build tests: list their files too.
	ov, err := raceTagOverlay(cfg, g, true)
	if err != nil {
		fmt.Fprintf(stderr, "racegen: race build tag: %v\n", err)
		return 1
	}
	if ov != "" {
		if strings.ContainsAny(ov, " \t\n'\"") {
			fmt.Fprintf(stderr, "racegen: the overlay's path %q has spaces or quotes; choose another directory with -o\n", ov)
			return 1
		}
		flags = append(flags, "-overlay="+ov)
	}
	fmt.Fprintln(stdout, strings.Join(flags, " "))
	return 0
}

// wrapperScript writes, unless it exists, the shell script that runs
// racegen as the go command's wrapper with cfg's flags, and returns its
// path.
func wrapperScript(cfg *config) (string, error) {
	if runtime.GOOS == "windows" {
		return "", fmt.Errorf("printing go flags needs a shell script, which Windows cannot run; use racegen build|test|run, or go build -toolexec='racegen toolexec'")
	}
	words, err := wrapperWords(cfg)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	b.WriteString("#!/bin/sh\n# Written by racegen: the go command's -toolexec wrapper.\nexec")
	for _, w := range words {
		b.WriteString(" '" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	b.WriteString(" \"$@\"\n")
	root, err := outRoot(cfg)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b.Bytes())
	name := filepath.Join(root, "racegen-toolexec-"+hex.EncodeToString(h[:])[:16])
	if _, err := os.Stat(name); err == nil {
		return name, nil
	}
	tmp, cleanup, err := writeTemp(root, "toolexec", b.Bytes())
	if err != nil {
		return "", err
	}
	defer cleanup()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, name); err != nil {
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	return name, nil
}

// listPackages has the go command list the packages g names, and returns
// its complaint if it has one.
func listPackages(g goArgs) error {
	args := append([]string{"list", "-e", "-f", "{{with .Error}}{{.}}{{end}}"}, g.flags...)
	args = append(args, g.patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = g.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list %s: %v\n%s", strings.Join(g.patterns, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	if msg := strings.TrimSpace(string(out)); msg != "" {
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// checkGoFlags refuses the go flags, on the command line or in GOFLAGS,
// that cannot be combined with racegen's wrapper.
func checkGoFlags(g goArgs) error {
	for _, name := range []string{"race", "toolexec"} {
		if g.has(name) {
			if name == "race" {
				return fmt.Errorf("-race builds Go's own race detector; racegen replaces it")
			}
			return fmt.Errorf("racegen runs the go command with a -toolexec wrapper of its own, which cannot be combined with yours")
		}
	}
	return nil
}

// has reports whether the go command would see the flag -name, given on
// g's command line or in GOFLAGS.
func (g goArgs) has(name string) bool {
	for _, a := range append(splitQuoted(goEnv("GOFLAGS")), g.flags...) {
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && n == name {
			return true
		}
	}
	return false
}

// resolvePatterns turns the relative patterns of -accesspkg ("./...",
// "../lib") into import path patterns, which is what the wrapper can
// compare with the packages it compiles: a directory of the main module
// becomes its import path ("./internal/..." in module example.com/m,
// example.com/m/internal/...); any other relative pattern, the import
// paths the go command lists for it. The others are import path patterns
// already.
func resolvePatterns(dir string, patterns []string) ([]string, error) {
	var out []string
	for _, p := range patterns {
		if p == "" {
			continue
		}
		if p != "." && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") && !filepath.IsAbs(p) {
			out = append(out, p)
			continue
		}
		if ip, ok := moduleImportPattern(dir, p); ok {
			out = append(out, ip)
			continue
		}
		cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}", p)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		list, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("-accesspkg %s: %v\n%s", p, err, bytes.TrimSpace(stderr.Bytes()))
		}
		out = append(out, strings.Fields(string(list))...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-accesspkg names no package")
	}
	return out, nil
}

// moduleImportPattern returns the import path pattern of the relative
// pattern p, resolved in dir, if it names a directory of the main module.
func moduleImportPattern(dir, p string) (string, bool) {
	gomod := goEnvIn(dir, "GOMOD")
	if gomod == "" || gomod == os.DevNull {
		return "", false
	}
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", false
	}
	mod := modfile.ModulePath(data)
	base, dots := strings.CutSuffix(filepath.ToSlash(p), "/...")
	if !dots && base == "..." {
		return "", false
	}
	abs, err := filepath.Abs(filepath.Join(dir, filepath.FromSlash(base)))
	if err != nil || mod == "" {
		return "", false
	}
	rel, err := filepath.Rel(filepath.Dir(gomod), abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	ip := mod
	if rel != "." {
		ip += "/" + filepath.ToSlash(rel)
	}
	if dots {
		ip += "/..."
	}
	return ip, true
}

// versionString describes this racegen: its module version or VCS
// revision, and the Go release it was built with.
func versionString() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = "+dirty"
				}
			}
		}
		if rev != "" {
			v += " " + rev[:min(len(rev), 12)] + modified
		}
	}
	return "racegen " + v + " " + runtime.Version()
}
