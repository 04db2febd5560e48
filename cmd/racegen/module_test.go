package main

import (
	"go/version"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestRuntimeGoVersion checks that the runtime's module, as writeRuntime
// writes it, states runtimeGoVersion, and that this is no newer than the
// go version of racegen's own module, which builds the same source.
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
	if rt != runtimeGoVersion {
		t.Errorf("the runtime's go.mod says go %s, want %s", rt, runtimeGoVersion)
	}
	own := goVersion(filepath.Join(moduleRoot(t), "go.mod"))
	if version.Compare("go"+rt, "go"+own) > 0 {
		t.Errorf("the runtime's go.mod says go %s, newer than racegen's go %s", rt, own)
	}
}
