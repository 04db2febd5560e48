package main

import (
	"encoding/json"
	"fmt"
	"go/version"
	"os"
	"path/filepath"
	"strings"

	"github.com/racegen/racegen/bench/internal/modsrc"
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
	if _, err := modsrc.Fetch(w.Module, w.Version, scratch, dst); err != nil {
		return "", err
	}
	if err := raiseGoVersion(dst); err != nil {
		return "", fmt.Errorf("%s: %w", w.Module, err)
	}
	if _, err := modsrc.Go(dst, "mod", "download"); err != nil {
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
	out, err := modsrc.Go(dir, "mod", "edit", "-json")
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
	if _, err := modsrc.Go(dir, "mod", "edit", "-go="+minGo); err != nil {
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
