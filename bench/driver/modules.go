package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/version"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// moduleDir returns the root of w's source as the main module: the
// racegen repository for in-repo workloads, otherwise a writable copy of
// the module's source taken from the module cache into scratch, with its
// dependencies downloaded. racegen instruments only the main module's
// packages, and go build -overlay refuses files in the module cache, so
// the copy is what makes a proxy module instrumentable.
func moduleDir(w *workload, repo, scratch string) (string, error) {
	if w.InRepo() {
		return repo, nil
	}
	dst := filepath.Join(scratch, "src", strings.ReplaceAll(w.Module, "/", "_")+"@"+w.Version)
	done := filepath.Join(dst, ".racegen-bench-ready")
	if _, err := os.Stat(done); err == nil {
		return dst, nil
	}
	src, err := downloadModule(w.Module, w.Version, scratch)
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(dst); err != nil {
		return "", fmt.Errorf("clearing %s: %w", dst, err)
	}
	if err := copyTree(dst, src); err != nil {
		return "", fmt.Errorf("copying %s@%s: %w", w.Module, w.Version, err)
	}
	gomod := filepath.Join(dst, "go.mod")
	if _, err := os.Stat(gomod); os.IsNotExist(err) {
		// A module from before modules (+incompatible) has no go.mod.
		data := fmt.Sprintf("module %s\n", w.Module)
		if err := os.WriteFile(gomod, []byte(data), 0o644); err != nil {
			return "", fmt.Errorf("writing go.mod for %s: %w", w.Module, err)
		}
	}
	if err := raiseGoVersion(dst); err != nil {
		return "", fmt.Errorf("%s: %w", w.Module, err)
	}
	if _, err := goCmd(dst, "mod", "download"); err != nil {
		return "", fmt.Errorf("downloading dependencies of %s: %w", w.Module, err)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		return "", fmt.Errorf("marking %s ready: %w", dst, err)
	}
	return dst, nil
}

// minGo is the oldest go directive a main module may have for racegen to
// build it: racegen's copy of go.mod requires its runtime module, which
// declares go 1.24, and the go command refuses a dependency newer than
// the main module's language version ("updates to go.mod needed").
const minGo = "1.24"

// raiseGoVersion raises the go directive of the module copy in dir to
// minGo if it is older. Every configuration builds the same copy, so the
// comparison stays fair.
func raiseGoVersion(dir string) error {
	out, err := goCmd(dir, "mod", "edit", "-json")
	if err != nil {
		return err
	}
	var mod struct{ Go string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return fmt.Errorf("reading go.mod: %w", err)
	}
	if mod.Go != "" && version.Compare("go"+mod.Go, "go"+minGo) >= 0 {
		return nil
	}
	if _, err := goCmd(dir, "mod", "edit", "-go="+minGo); err != nil {
		return err
	}
	old := mod.Go
	if old == "" {
		old = "none (no go.mod upstream)"
	}
	return os.WriteFile(filepath.Join(dir, ".racegen-bench-go"), []byte(old), 0o644)
}

// raisedFrom returns the go version raiseGoVersion replaced in dir, if
// any.
func raisedFrom(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, ".racegen-bench-go"))
	if err != nil {
		return ""
	}
	return string(b)
}

// downloadModule fetches path@version into the module cache and returns
// its directory there. It runs in dir, which must not be inside a module.
func downloadModule(path, version, dir string) (string, error) {
	out, err := goCmd(dir, "mod", "download", "-json", path+"@"+version)
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

// copyTree copies the regular files under src to dst, making them
// writable (the module cache's files are read-only).
func copyTree(dst, src string) error {
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

// goEnv is the environment for every go command the driver runs: no
// workspace, no toolchain switching.
func goEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
}

// goCmd runs the go command in dir and returns its standard output; on
// failure the error includes standard error.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}
