package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racegen/racegen/analysis"
)

// TestGenericHooks instruments the package of the analysis's tests that
// accesses memory through variables of type parameter type (array,
// struct and pointer core types, shared through slices, pointers and
// closures, and the same code without the sharing), wired to the
// analysis as racegen wires it, and checks that the accesses annotated
// "shared:" there get a hook and those annotated "local:" do not. It
// also checks that indexing or slicing a value that may be an array
// never reads the value as a whole, which would race with writes of
// its other elements.
func TestGenericHooks(t *testing.T) {
	name := filepath.Join("..", "analysis", "testdata", "src", "generics", "generics.go")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	fset := token.NewFileSet()
	f, pkg, info := checkSrc(t, fset, mapImporter{}, "generics", src)
	loc, err := analysis.Package(fset, []*ast.File{f}, pkg, info)
	if err != nil {
		t.Fatal(err)
	}
	// The instrumenter asks Local about every access it would hook
	// otherwise, and hooks it unless Local says it is local.
	hooked := make(map[ast.Expr]bool)
	local := func(e ast.Expr) bool {
		l := loc.Local(e)
		hooked[e] = !l
		return l
	}
	res, err := Package(fset, []*ast.File{f}, pkg, info, &Config{Local: local, LocalTarget: loc.LocalTarget})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sites == 0 || len(hooked) < res.Sites {
		t.Fatalf("%d sites hooked, but Local was asked about %d", res.Sites, len(hooked))
	}

	tf := fset.File(f.Pos())
	exprs := make(map[int]map[string][]ast.Expr) // by line and source text
	ast.Inspect(f, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		line, text := tf.Line(e.Pos()), src[tf.Offset(e.Pos()):tf.Offset(e.End())]
		if exprs[line] == nil {
			exprs[line] = make(map[string][]ast.Expr)
		}
		exprs[line][text] = append(exprs[line][text], e)
		var operand ast.Expr
		switch e := e.(type) {
		case *ast.IndexExpr:
			operand = e.X
		case *ast.SliceExpr:
			operand = e.X
		}
		if operand != nil && analysis.MayBeArray(info.TypeOf(operand)) && hooked[ast.Unparen(operand)] {
			t.Errorf("line %d: %s reads %s as a whole", line, text, types.ExprString(operand))
		}
		return true
	})
	n := 0
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			line := tf.Line(c.Pos())
			for text, shared := range sharedAnnotations(c.Text) {
				es := exprs[line][text]
				if len(es) == 0 {
					t.Errorf("line %d: annotation %q matches no expression", line, text)
				}
				for _, e := range es {
					n++
					if hooked[e] != shared {
						t.Errorf("line %d: %s hooked = %v, want %v", line, text, hooked[e], shared)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Errorf("%s: no annotations", name)
	}
}

// sharedAnnotations parses a comment "// local: a; b; shared: c" into
// whether each expression must be shared.
func sharedAnnotations(text string) map[string]bool {
	text = strings.TrimSpace(strings.TrimPrefix(text, "//"))
	if !strings.HasPrefix(text, "local:") && !strings.HasPrefix(text, "shared:") {
		return nil
	}
	out := make(map[string]bool)
	shared := false
	for _, part := range strings.Split(text, ";") {
		part = strings.TrimSpace(part)
		if k, rest, ok := strings.Cut(part, ":"); ok && (k == "local" || k == "shared") {
			shared, part = k == "shared", strings.TrimSpace(rest)
		}
		out[part] = shared
	}
	return out
}
