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
	"slices"
	"strings"

	"github.com/racegen/racegen/instrument"
)

// runtimeArchives returns the archive of the detector runtime built for
// cfg, and of each package it depends on, by import path. In toolexec
// mode these packages are not part of the user's build: the go command
// does not know the instrumented code imports them. racegen writes the
// runtime's source, with cfg's configuration, under the output root and
// has the go command of the toolchain whose compile and link are in
// toolDir (GOROOT/pkg/tool/GOOS_GOARCH) build it (go list -export -deps)
// with the user build's object flags, so that the standard packages they share
// are the same archives in both builds; the go build cache makes every
// build after the first one cheap, and the list of archives is kept next
// to the source, keyed by everything that selects the archives.
func runtimeArchives(cfg *config, toolDir string) (map[string]string, error) {
	self, err := selfHash()
	if err != nil {
		return nil, err
	}
	root, err := outRoot(cfg)
	if err != nil {
		return nil, err
	}
	config := runtimeConfig(cfg)
	h := sha256.New()
	fmt.Fprintf(h, "racegen %s\n%s", self, config)
	dir := filepath.Join(root, "toolexec-"+hex.EncodeToString(h.Sum(nil))[:32])
	if err := publishRuntime(root, dir, config); err != nil {
		return nil, fmt.Errorf("writing the detector runtime: %w", err)
	}

	flags := parentBuildFlags()
	key := archivesKey(toolDir, flags)
	list := filepath.Join(dir, "archives-"+key+".json")
	if m, err := readArchives(list); err == nil {
		return m, nil
	}
	goroot := filepath.Dir(filepath.Dir(filepath.Dir(toolDir)))
	m, err := listRuntime(goroot, filepath.Join(dir, "rt"), flags)
	if err != nil {
		return nil, err
	}
	if err := writeArchives(list, m); err != nil {
		return nil, err
	}
	return m, nil
}

// publishRuntime writes the runtime's module, with config as its
// config.go, into dir, unless an earlier run did: it is written into a
// temporary directory under root and renamed, so that concurrent
// wrappers see it whole or not at all.
func publishRuntime(root, dir string, config []byte) error {
	if _, err := os.Stat(filepath.Join(dir, doneFile)); err == nil {
		return nil
	}
	tmp, err := os.MkdirTemp(root, filepath.Base(dir)+".tmp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := writeRuntime(filepath.Join(tmp, "rt")); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "rt", "runtime", "config.go"), config, 0o666); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, doneFile), nil, 0o666); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, doneFile)); serr == nil {
			return nil // a concurrent wrapper wrote the same files
		}
		return fmt.Errorf("publishing %s: %w", dir, err)
	}
	return nil
}

// archivesKey hashes what selects the archives a build of the runtime's
// source produces: the toolchain, the object flags and the go command's
// environment (which the go command sets in full for the tools it runs,
// go env -w settings included), apart from the variables that name the
// user's module or workspace.
func archivesKey(toolDir string, flags []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "tools %s\nflags %q\n", toolDir, flags)
	// A toolchain rebuilt in place keeps its GOROOT and, in development
	// versions, its GOVERSION: the compiler's size and time tell.
	if fi, err := os.Stat(filepath.Join(toolDir, "compile")); err == nil {
		fmt.Fprintf(h, "compile %d %d\n", fi.Size(), fi.ModTime().UnixNano())
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOFLAGS", "GOMOD", "GOWORK":
			continue
		}
		if strings.HasPrefix(k, "GO") || strings.HasPrefix(k, "CGO_") {
			env = append(env, kv)
		}
	}
	slices.Sort(env)
	fmt.Fprintf(h, "env %q\n", env)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// listRuntime has the go command build the runtime in the module rtDir
// and its dependencies, and returns their archives by import path.
func listRuntime(goroot, rtDir string, flags []string) (map[string]string, error) {
	args := append([]string{"list", "-export", "-deps", "-json=ImportPath,Export,Error,DepsErrors"}, flags...)
	args = append(args, instrument.RuntimePath)
	cmd := exec.Command(filepath.Join(goroot, "bin", "go"), args...)
	cmd.Dir = rtDir
	// The runtime's module stands alone: no workspace, no network, no
	// toolchain switch, and none of the user's GOFLAGS (-toolexec
	// among them); the object flags come as arguments.
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOFLAGS", "GOMOD", "GOWORK", "GO111MODULE", "GOPROXY", "GOTOOLCHAIN", "TOOLEXEC_IMPORTPATH":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "GOFLAGS=", "GOWORK=off", "GO111MODULE=on", "GOPROXY=off", "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("building the detector runtime (go %s): %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	type pkgError struct{ Err string }
	m := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Export     string
			Error      *pkgError
			DepsErrors []*pkgError
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go list output for the detector runtime: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("building the detector runtime: %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.ImportPath == "unsafe" {
			continue // the compiler's own; it has no archive
		}
		if p.Export == "" {
			return nil, fmt.Errorf("building the detector runtime: go list gave no archive for %s", p.ImportPath)
		}
		m[p.ImportPath] = p.Export
	}
	if m[instrument.RuntimePath] == "" {
		return nil, fmt.Errorf("building the detector runtime: go list did not list %s", instrument.RuntimePath)
	}
	return m, nil
}

// readArchives reads a list written by writeArchives, and fails if an
// archive it names is gone (the go build cache trims unused files).
func readArchives(name string) (map[string]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if m[instrument.RuntimePath] == "" {
		return nil, fmt.Errorf("%s: no archive for %s", name, instrument.RuntimePath)
	}
	for _, f := range m {
		if _, err := os.Stat(f); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// writeArchives writes m to name through a temporary file, so that a
// concurrent reader sees all of it or nothing.
func writeArchives(name string, m map[string]string) error {
	data, err := json.MarshalIndent(m, "", "\t")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".tmp")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}
