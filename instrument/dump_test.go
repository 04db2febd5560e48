package instrument

import (
	"fmt"
	"os"
	"testing"
)

// TestDump prints the rewrite of the package in $RACEGEN_DUMP, a directory
// relative to this one, for debugging the rewriter.
func TestDump(t *testing.T) {
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
