package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func hashFile(h io.Writer, name string) error {
	fmt.Fprintf(h, "file %s\n", name)
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil // go.sum may be absent
	}
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// selfHash identifies the racegen binary, whose instrumenter and embedded
// runtime shape the output.
func selfHash() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding racegen's executable: %w", err)
	}
	h := sha256.New()
	if err := hashFile(h, exe); err != nil {
		return "", fmt.Errorf("hashing racegen's executable: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// outRoot returns the directory that holds instrumented builds.
func outRoot(cfg *config) (string, error) {
	dir := cfg.outDir
	if dir == "" {
		cache := os.Getenv("GOCACHE") // set for the tools the go command runs
		if cache == "" {
			cache = goEnv("GOCACHE")
		}
		if cache == "" || cache == "off" {
			return "", fmt.Errorf("the Go build cache is off (GOCACHE=%q); use -o to choose where instrumented files go", cache)
		}
		dir = filepath.Join(cache, "racegen")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("creating output directory: %w", err)
	}
	return dir, nil
}

// checkExperiments refuses GOEXPERIMENT=runtimefreegc, under which the
// runtime frees memory without a GC cycle: the detector tells a new object
// from an old one at the same address by GC cycles (see docs/runtime.md),
// so it could report races between two different objects.
func checkExperiments(dir string) error {
	cmd := exec.Command("go", "env", "GOEXPERIMENT")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go env GOEXPERIMENT: %w", err)
	}
	for _, e := range strings.Split(strings.TrimSpace(string(out)), ",") {
		if e == "runtimefreegc" {
			return fmt.Errorf("GOEXPERIMENT=runtimefreegc frees memory outside GC cycles, which racegen's detector relies on; build without it")
		}
	}
	return nil
}

// goEnv returns the value of a go env variable, or "" if it cannot be read.
func goEnv(name string) string { return goEnvIn("", name) }

// goEnvIn returns the value of a go env variable for the go command run
// in dir, or "" if it cannot be read.
func goEnvIn(dir, name string) string {
	cmd := exec.Command("go", "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// goEnvsIn returns the values of go env variables, in order, for the go
// command run in dir, read with one go env.
func goEnvsIn(dir string, names ...string) ([]string, error) {
	cmd := exec.Command("go", append([]string{"env"}, names...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env %s: %w", strings.Join(names, " "), err)
	}
	vals := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(vals) != len(names) {
		return nil, fmt.Errorf("go env %s: %d lines, want %d", strings.Join(names, " "), len(vals), len(names))
	}
	return vals, nil
}
