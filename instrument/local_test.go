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
		if all.Sites == 0 || none.Sites != 0 || none.Dropped != all.Sites || len(asked) < all.Sites {
			t.Errorf("%s: Sites %d without Local; with Local: Sites %d, Dropped %d, asked %d", p.PkgPath, all.Sites, none.Sites, none.Dropped, len(asked))
		}
	}
}
