package instrument

import (
	"go/ast"
	"path/filepath"
	"testing"
)

// TestLocal checks that Config.Local removes hooks and is counted.
func TestLocal(t *testing.T) {
	pkgs := load(t, filepath.Join("testdata", "golden", "expr"))
	p := pkgs[0]
	all, err := Package(p.Fset, p.Syntax, p.Types, p.TypesInfo, nil)
	if err != nil {
		t.Fatal(err)
	}
	var asked []ast.Expr
	none, err := Package(p.Fset, p.Syntax, p.Types, p.TypesInfo, &Config{Local: func(e ast.Expr) bool {
		asked = append(asked, e)
		return true
	}})
	if err != nil {
		t.Fatal(err)
	}
	if all.Sites == 0 || none.Sites != 0 || none.Dropped != all.Sites || len(asked) != all.Sites {
		t.Errorf("Sites %d without Local; with Local: Sites %d, Dropped %d, asked %d", all.Sites, none.Sites, none.Dropped, len(asked))
	}
}
