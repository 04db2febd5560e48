package main

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestRuntimeGoVersion checks that the runtime's module, as writeRuntime
// writes it, states the go version of racegen's own module, which builds
// the same source.
func TestRuntimeGoVersion(t *testing.T) {
	goVersion := func(name string) string {
		t.Helper()
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := modfile.ParseLax(name, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f.Go == nil {
			t.Fatalf("%s has no go line", name)
		}
		return f.Go.Version
	}
	dir := t.TempDir()
	if err := writeRuntime(dir); err != nil {
		t.Fatal(err)
	}
	rt := goVersion(filepath.Join(dir, "go.mod"))
	own := goVersion(filepath.Join(moduleRoot(t), "go.mod"))
	if rt != own {
		t.Errorf("the runtime's go.mod says go %s, racegen's go %s", rt, own)
	}
}
