package instrument

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestDump prints the rewrite of the package in $RACEGEN_DUMP, a directory
// relative to this one, for debugging the rewriter. With $RACEGEN_DUMP_OUT
// set it instead rewrites the package (with its tests) in that directory,
// which may belong to another module, and writes the files and an
// overlay.json for go test -overlay there.
func TestDump(t *testing.T) {
	if out := os.Getenv("RACEGEN_DUMP_OUT"); out != "" {
		dumpOverlay(t, out)
		return
	}
	dir := os.Getenv("RACEGEN_DUMP")
	if dir == "" {
		t.Skip("RACEGEN_DUMP not set")
	}
	for _, pkg := range load(t, dir) {
		res := rewrite(t, pkg)
		for name, src := range res.Files {
			fmt.Printf("==== %s (%d sites, %d dropped)\n%s", name, res.Sites, res.Dropped, src)
		}
	}
}

func dumpOverlay(t *testing.T, dir string) {
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode, Dir: dir, Tests: true, Env: append(os.Environ(), "GOWORK=off")}, ".")
	if err != nil {
		t.Fatal(err)
	}
	replace := make(map[string]string)
	outDir := filepath.Join(dir, ".racegen")
	os.MkdirAll(outDir, 0o777)
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") {
			continue
		}
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.ID, e)
		}
		res := rewrite(t, p)
		for name, src := range res.Files {
			out := filepath.Join(outDir, filepath.Base(name))
			if err := os.WriteFile(out, src, 0o666); err != nil {
				t.Fatal(err)
			}
			replace[name] = out
		}
		t.Logf("%s: %d sites", p.ID, res.Sites)
	}
	writeOverlay(t, outDir, replace)
}
