package instrument

import (
	"go/ast"
	"path/filepath"
	"testing"
)

// TestLocal checks that Config.Local and LocalTarget remove hooks and are
// counted.
func TestLocal(t *testing.T) {
	for _, p := range load(t, filepath.Join("testdata", "golden", "expr"), filepath.Join("testdata", "golden", "collections")) {
		all, err := Package(p.Fset, p.Syntax, p.Types, p.TypesInfo, nil)
		if err != nil {
			t.Fatal(err)
		}
		var asked []ast.Expr
		yes := func(e ast.Expr) bool {
			asked = append(asked, e)
			return true
		}
		none, err := Package(p.Fset, p.Syntax, p.Types, p.TypesInfo, &Config{Local: yes, LocalTarget: yes})
		if err != nil {
			t.Fatal(err)
		}
		// copy and append ask about both operands.
		// Without Local, some hooks are redundant; with it, none is
		// given, so none can be.
		hooked := all.Sites + all.Redundant
		if all.Sites == 0 || none.Sites != 0 || none.Redundant != 0 || none.Dropped != hooked || len(asked) < hooked {
			t.Errorf("%s: Sites %d, Redundant %d without Local; with Local: Sites %d, Dropped %d, asked %d", p.PkgPath, all.Sites, all.Redundant, none.Sites, none.Dropped, len(asked))
		}
	}
}
