package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/racegen/racegen/bench/internal/modsrc"
)

// A prepared module is a writable copy of a module's source with its
// dependencies in the module cache.
type prepared struct {
	Dir string // the copy's root
	// GoLine is the go directive of the copy's go.mod, which the harness
	// never changes; "" if it has none.
	GoLine string
	// Note says how the copy differs from the module, if it does.
	Note string
	// Warning is what go mod download said if it failed in the copy,
	// such as "go: updates to go.mod needed": the tests still run, and
	// every form meets the same go.mod.
	Warning string
}

// copyDir is where prepare puts the copy of m under the work directory.
func copyDir(m module, work string) string {
	return filepath.Join(work, "src", strings.ReplaceAll(m.Path, "/", "_")+"@"+m.Version, repoBase(m.Path))
}

// repoBase is the name of the directory a git clone of module path would
// have: its last element, or the one before a major version suffix.
// Some tests see it: zap's match the caller's directory against
// [a-z0-9_-]+, which a name with "@v1.28.0" in it fails.
func repoBase(path string) string {
	elems := strings.Split(path, "/")
	base := elems[len(elems)-1]
	if len(elems) > 1 && len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = elems[len(elems)-2]
	}
	return base
}

// readyFile marks a copy whose preparation finished, so that a rerun with
// the same -work directory reuses it.
const readyFile = ".racegen-modules-ready"

// prepare makes the copy of m under work/src, or reuses one a previous
// run made. The module cache is only read.
func prepare(m module, work string) (prepared, error) {
	p := prepared{Dir: copyDir(m, work)}
	// The mark stays outside the copy, where no test of the module sees
	// it (fasthttp's serve and list their own directories).
	ready := filepath.Join(filepath.Dir(p.Dir), readyFile)
	if data, err := os.ReadFile(ready); err == nil {
		dir := p.Dir
		if err := json.Unmarshal(data, &p); err != nil {
			return p, fmt.Errorf("reading %s: %w", ready, err)
		}
		p.Dir = dir // the work directory may have moved
		return p, nil
	}
	wrote, err := modsrc.Fetch(m.Path, m.Version, work, p.Dir)
	if err != nil {
		return p, err
	}
	if wrote {
		p.Note = "no go.mod upstream: the copy has one that names the module and nothing else (so go 1.16 semantics)"
	}
	out, err := modsrc.Go(p.Dir, "mod", "edit", "-json")
	if err != nil {
		return p, err
	}
	var gomod struct{ Go string }
	if err := json.Unmarshal(out, &gomod); err != nil {
		return p, fmt.Errorf("reading the go.mod of %s: %w", m.Path, err)
	}
	p.GoLine = gomod.Go
	if _, err := modsrc.Go(p.Dir, "mod", "download"); err != nil {
		p.Warning = strings.TrimSpace(err.Error())
	}
	data, err := json.Marshal(p)
	if err != nil {
		return p, err
	}
	if err := os.WriteFile(ready, data, 0o644); err != nil {
		return p, fmt.Errorf("marking %s ready: %w", p.Dir, err)
	}
	return p, nil
}
