// Package modsrc makes writable copies of modules from the module proxy,
// for the harnesses that run racegen on real modules (make bench and
// make eval-modules), and runs the go command the way both want it run.
//
// racegen instruments only the main module's packages, and go build
// -overlay refuses files in the module cache, so a module from the proxy
// is measured as the main module of a copy of its source. The module
// cache itself is read-only and is never written to: Fetch reads it and
// writes only under the directory it is given.
package modsrc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Env returns the environment for the go commands the harnesses run:
// the current one, with no workspace and no toolchain switching, so that
// every module is built by the installed Go release as its own main
// module.
func Env() []string {
	return append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
}

// Go runs the go command in dir with Env and returns its standard output;
// on failure the error includes standard error.
func Go(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = Env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// Download fetches path@version into the module cache and returns its
// directory there. It runs in dir, which must not be inside a module.
func Download(path, version, dir string) (string, error) {
	out, err := Go(dir, "mod", "download", "-json", path+"@"+version)
	if err != nil {
		return "", fmt.Errorf("downloading %s@%s: %w", path, version, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", fmt.Errorf("reading go mod download output for %s@%s: %w", path, version, err)
	}
	if info.Error != "" || info.Dir == "" {
		return "", fmt.Errorf("downloading %s@%s: %s", path, version, info.Error)
	}
	return info.Dir, nil
}

// Fetch downloads path@version (running the go command in scratch, which
// must not be inside a module) and replaces dst with a writable copy of
// its source. A module from before modules (+incompatible) has no go.mod;
// Fetch then writes one that names the module and nothing else, and
// reports that it did.
func Fetch(path, version, scratch, dst string) (wroteGoMod bool, err error) {
	src, err := Download(path, version, scratch)
	if err != nil {
		return false, err
	}
	if err := os.RemoveAll(dst); err != nil {
		return false, fmt.Errorf("clearing %s: %w", dst, err)
	}
	if err := CopyTree(dst, src); err != nil {
		return false, fmt.Errorf("copying %s@%s: %w", path, version, err)
	}
	gomod := filepath.Join(dst, "go.mod")
	if _, err := os.Stat(gomod); !os.IsNotExist(err) {
		return false, err
	}
	if err := os.WriteFile(gomod, []byte("module "+path+"\n"), 0o644); err != nil {
		return false, fmt.Errorf("writing go.mod for %s: %w", path, err)
	}
	return true, nil
}

// CopyTree copies the regular files under src to dst, making them
// writable (the module cache's files are read-only).
func CopyTree(dst, src string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
