package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// runToolexec is racegen as the go command's -toolexec wrapper:
//
//	go build -toolexec='racegen [flags] toolexec' ./cmd/app
//
// The go command runs "racegen [flags] toolexec TOOL ARGS..." for every
// tool it would run as "TOOL ARGS...". Each compile asks policy.go's
// scopeOf what to do with its package: the packages it instruments get
// their files rewritten, and their importcfg, like the link's, gets the
// detector runtime; the other compiles, and every other tool, run as
// they are. The
// tool's answer to -V=full, which the go command folds into the key of
// everything it caches, names racegen and its flags, so that no archive
// built without racegen, or with other flags, is taken from the cache.
func runToolexec(cfg *config, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "racegen: toolexec: no tool to run; use go build -toolexec='racegen toolexec'\n")
		return 2
	}
	tool, targs := args[0], args[1:]
	name := toolName(tool)
	var err error
	switch {
	case (name == "compile" || name == "link") && len(targs) == 1 && targs[0] == "-V=full":
		err = toolVersion(cfg, tool, stdout, stderr)
	case name == "compile":
		err = toolexecCompile(cfg, tool, targs, stdout, stderr)
	case name == "link":
		err = toolexecLink(cfg, tool, targs, stdout, stderr)
	default:
		err = runTool(tool, targs, stdout, stderr)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode() // the tool said why
	default:
		fmt.Fprintf(stderr, "racegen: %v\n", err)
		return 1
	}
}

// toolName returns the name of the go command's tool at path, "compile"
// for .../compile or .../compile.exe, by which the -toolexec wrappers
// choose what to do with its invocation.
func toolName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".exe")
}

// runTool runs a tool with racegen's standard streams and environment,
// with env added to it.
func runTool(tool string, args []string, stdout, stderr io.Writer, env ...string) error {
	cmd := exec.Command(tool, args...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdin = os.Stdin
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	return cmd.Run()
}

// toolVersion answers "compile -V=full" or "link -V=full" with the
// tool's own answer and racegen's identity.
func toolVersion(cfg *config, tool string, stdout, stderr io.Writer) error {
	var out bytes.Buffer
	cmd := exec.Command(tool, "-V=full")
	cmd.Stdout = &out
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return err
	}
	self, err := selfHash()
	if err != nil {
		return err
	}
	root, err := outRoot(cfg)
	if err != nil {
		return err
	}
	id := toolexecIdentity(cfg, self, root)
	if toolName(tool) == "compile" {
		// Which compiler compiles the instrumented packages is part of
		// what they are; asking builds racegen's on first use, once,
		// before the go command runs any compile.
		compiler := "standard"
		if _, err := patchedCompiler(cfg, tool); err == nil {
			compiler = compilerVersion
		}
		id += ",compiler=" + compiler
	}
	_, err = fmt.Fprintln(stdout, versionLine(strings.TrimSpace(out.String()), id))
	return err
}

// toolexecIdentity names everything that shapes what the wrapper
// produces: racegen's executable, which holds the instrumenter and the
// runtime, the flags that reach the instrumented code, -v, whose
// messages the go command caches and replays with a compile's output,
// and the directory the runtime is built in, whose name is in the
// runtime's export data and so in the fingerprint every instrumented
// package records for it.
func toolexecIdentity(cfg *config, self, root string) string {
	id := fmt.Sprintf("racegen=%.16s,mode=%s,rate=%s,seed=%d,watch=%s,watchpoints=%s",
		self, cfg.mode, strconv.FormatFloat(cfg.rate, 'g', -1, 64), cfg.seed, cfg.watch, cfg.watchpoints)
	if len(cfg.access) > 0 {
		id += ",accesspkg=" + strings.Join(cfg.access, ",")
	}
	if cfg.fresa {
		id += ",fresa"
	}
	if cfg.profile != "" {
		h := sha256.Sum256([]byte(cfg.profileSrc))
		id += ",profile=" + hex.EncodeToString(h[:8])
	}
	if cfg.verbose {
		id += ",v"
	}
	return id + ",rt=" + root
}

// versionLine adds id to a tool's -V=full line. The go command uses a
// release toolchain's whole line as the tool's identity, but only the
// content part of the final buildID=... field of a development
// toolchain's line: there id goes into that field, hashed, for it must
// not contain the separator "/".
func versionLine(line, id string) string {
	f := strings.Fields(line)
	if len(f) >= 3 && strings.Contains(f[2], "devel") && strings.HasPrefix(f[len(f)-1], "buildID=") {
		h := sha256.Sum256([]byte(id))
		return line + "+" + hex.EncodeToString(h[:])[:32]
	}
	return line + " " + id
}

// toolexecLink links with the detector runtime's archives added to the
// importcfg, for the packages it does not list already.
func toolexecLink(cfg *config, tool string, args []string, stdout, stderr io.Writer) error {
	i := flagIndex(args, "importcfg")
	if i < 0 {
		return runTool(tool, args, stdout, stderr)
	}
	archives, err := runtimeArchives(cfg, filepath.Dir(tool))
	if err != nil {
		return err
	}
	ic, err := readImportCfg(args[i])
	if err != nil {
		return err
	}
	for _, path := range slices.Sorted(maps.Keys(archives)) {
		ic.addPackageFile(path, archives[path])
	}
	name, cleanup, err := writeTemp(filepath.Dir(args[i]), "importcfg", ic.bytes())
	if err != nil {
		return err
	}
	defer cleanup()
	args = append([]string(nil), args...)
	args[i] = name
	return runTool(tool, args, stdout, stderr)
}

// flagIndex returns the index in args of the value of the tool flag
// -name, given as "-name value" (as the go command writes it), or -1.
func flagIndex(args []string, name string) int {
	for i, a := range args {
		if (a == "-"+name || a == "--"+name) && i+1 < len(args) {
			return i + 1
		}
	}
	return -1
}

// writeTemp writes data to a new file in dir, named after pattern, and
// returns its name and a function that removes it.
func writeTemp(dir, pattern string, data []byte) (string, func(), error) {
	f, err := os.CreateTemp(dir, "racegen-"+pattern)
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.Remove(f.Name()) }
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("writing %s: %w", f.Name(), err)
	}
	return f.Name(), cleanup, nil
}
