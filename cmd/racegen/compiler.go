package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// racegen compiles the packages it instruments with its own build of the
// toolchain's compiler: the toolchain's sources from its GOROOT, with
// the changes of compilerPatches, each to one file and each about code
// that calls racegen's runtime: the inliner's cost of a hook
// (inliner.go), where the compiler lays out a hook's slow path
// (layout.go), and whose Ctx an inlined function uses (inlinectx.go).
// Every other package, and every other tool the build runs, is the
// toolchain's own.

// compilerVersion names the changes below; change it with them.
const compilerVersion = "racegen-compiler-5"

// A sourceEdit inserts text into a file of the compiler's source at the
// single place anchor occurs, before or after it.
type sourceEdit struct {
	anchor string
	text   string
	before bool
}

// A sourcePatch is a change to one file of the compiler's source.
type sourcePatch struct {
	file  string // relative to GOROOT
	edits []sourceEdit
}

// compilerPatches are the changes racegen's compiler is built with. Each
// is applied to the toolchain's own source, and if an anchor is not
// found exactly once (a newer Go), racegen uses the unchanged compiler.
var compilerPatches = []sourcePatch{
	{inlinerSource, inlinerPatch},
	{layoutSource, layoutPatch},
	{readerSource, readerPatch},
}

// patchSource applies edits to src, the source of the file named name.
func patchSource(name string, src []byte, edits []sourceEdit) ([]byte, error) {
	s := string(src)
	for _, e := range edits {
		switch n := strings.Count(s, e.anchor); n {
		case 1:
		case 0:
			return nil, fmt.Errorf("%s has no %q", name, firstLine(e.anchor))
		default:
			return nil, fmt.Errorf("%s has %d places %q", name, n, firstLine(e.anchor))
		}
		i := strings.Index(s, e.anchor)
		if !e.before {
			i += len(e.anchor)
		}
		s = s[:i] + e.text + s[i:]
	}
	return []byte(s), nil
}

func firstLine(s string) string {
	s = strings.TrimLeft(s, "\n\t")
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// instrumentingCompiler returns the compiler that compiles instrumented
// packages: racegen's build of the compiler at tool, the toolchain's own,
// or tool itself if that cannot be built, after saying why once.
func instrumentingCompiler(cfg *config, tool string, stderr io.Writer) string {
	path, err := patchedCompiler(cfg, tool)
	if err == nil {
		return path
	}
	root, rerr := outRoot(cfg)
	if rerr == nil {
		// Say it once for all the compiles of a build, and again a
		// day later.
		mark := filepath.Join(root, "inliner-warning")
		if fi, serr := os.Stat(mark); serr == nil && time.Since(fi.ModTime()) < 24*time.Hour {
			return tool
		}
		os.WriteFile(mark, nil, 0o666)
	}
	fmt.Fprintf(stderr, "racegen: warning: %v; instrumented functions are compiled by the standard compiler, which inlines fewer of them\n", err)
	return tool
}

// patchedCompiler returns racegen's build of the compiler at tool
// (GOROOT/pkg/tool/GOOS_GOARCH/compile), building it on first use.
func patchedCompiler(cfg *config, tool string) (string, error) {
	goroot := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(tool))))
	version, _ := os.ReadFile(filepath.Join(goroot, "VERSION"))
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s/%s\n%s\n", compilerVersion, goroot, runtime.GOOS, runtime.GOARCH, version)
	patched := make(map[string][]byte)
	for _, p := range compilerPatches {
		src, err := os.ReadFile(filepath.Join(goroot, p.file))
		if err != nil {
			return "", fmt.Errorf("building racegen's compiler: %w", err)
		}
		out, err := patchSource(filepath.Base(p.file), src, p.edits)
		if err != nil {
			return "", fmt.Errorf("building racegen's compiler: %w", err)
		}
		patched[p.file] = out
		h.Write(out)
	}
	root, err := outRoot(cfg)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "compile-"+hex.EncodeToString(h.Sum(nil))[:32])
	exe := filepath.Join(dir, "compile")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if _, err := os.Stat(exe); err == nil {
		return exe, nil
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(exe); err == nil {
		return exe, nil // built while we waited
	}
	if err := buildCompiler(goroot, dir, exe, patched); err != nil {
		return "", fmt.Errorf("building racegen's compiler: %w", err)
	}
	return exe, nil
}

// buildCompiler builds the compiler of goroot, with the sources in
// patched (by file name relative to goroot) in place of the toolchain's,
// into exe, through a temporary file in dir renamed into place.
func buildCompiler(goroot, dir, exe string, patched map[string][]byte) error {
	replace := make(map[string]string)
	for file, src := range patched {
		name := filepath.Join(dir, filepath.Base(file))
		if err := os.WriteFile(name, src, 0o666); err != nil {
			return err
		}
		replace[filepath.Join(goroot, file)] = name
	}
	o, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return err
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, o, 0o666); err != nil {
		return err
	}
	tmp := exe + ".tmp"
	cmd := exec.Command(filepath.Join(goroot, "bin", "go"), "build", "-overlay="+overlay, "-o", tmp, "cmd/compile")
	cmd.Dir = filepath.Join(goroot, "src", "cmd")
	// The compiler runs here, whatever the build targets; nothing of the
	// user's build settings applies to it.
	cmd.Env = append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH,
		"CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "GOROOT="+goroot)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build cmd/compile: %v\n%s", err, out.Bytes())
	}
	return os.Rename(tmp, exe)
}

// lockDir creates dir if need be and takes its lock, a file created
// exclusively, waiting for another process that holds it; a lock older
// than ten minutes is taken to be left by a process that died.
func lockDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	name := filepath.Join(dir, "lock")
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
		if err == nil {
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > 10*time.Minute {
			os.Remove(name)
			continue
		}
		time.Sleep(100 * time.Millisecond)
	}
}
