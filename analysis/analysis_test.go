package analysis_test

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racegen/racegen/analysis"
)

// TestAnnotations runs the Analyzer over the packages under testdata/src
// and checks the "// local:" and "// shared:" annotations there: every
// access expression listed must be reported local, or not local, exactly
// as annotated.
func TestAnnotations(t *testing.T) {
	fset := token.NewFileSet()
	imp := newImporter(fset)
	for _, path := range []string{"local", "shared", "readonly", "generics", "globals", "globalsasm", "receivers"} {
		t.Run(path, func(t *testing.T) {
			p := load(t, fset, imp, filepath.Join("testdata", "src", path), path)
			l, ok := runAnalyzer(t, analysis.Analyzer, p).(*analysis.Locality)
			if !ok || l == nil {
				t.Fatalf("result is not a *analysis.Locality")
			}
			for _, f := range p.files {
				checkFile(t, fset, f, l)
			}
		})
	}
}

// An annotation is one expectation: the access expressions with source
// text expr on line line must (or must not) be local.
type annotation struct {
	line   int
	expr   string
	local  bool
	target bool // about LocalTarget, not Local
}

// checkFile checks the annotations of f against l.
func checkFile(t *testing.T, fset *token.FileSet, f *ast.File, l *analysis.Locality) {
	t.Helper()
	checkSource(t, fset, f, fileSource(t, fset.File(f.Pos()).Name()), l)
}

// checkSource checks the annotations of f, whose source is src, against l.
func checkSource(t *testing.T, fset *token.FileSet, f *ast.File, src string, l *analysis.Locality) {
	t.Helper()
	tf := fset.File(f.Pos())
	var anns []annotation
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			anns = append(anns, parseAnnotations(fset.Position(c.Pos()).Line, c.Text)...)
		}
	}
	// Index the candidate expressions of f by line and source text.
	type key struct {
		line int
		text string
	}
	exprs := make(map[key][]ast.Expr)
	ast.Inspect(f, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr, *ast.ParenExpr, *ast.CallExpr:
			e2 := e.(ast.Expr)
			start, end := tf.Offset(e2.Pos()), tf.Offset(e2.End())
			k := key{fset.Position(e2.Pos()).Line, src[start:end]}
			exprs[k] = append(exprs[k], e2)
		}
		return true
	})
	for _, a := range anns {
		es := exprs[key{a.line, a.expr}]
		if len(es) == 0 {
			t.Errorf("%s:%d: annotation %q matches no expression", tf.Name(), a.line, a.expr)
			continue
		}
		for _, e := range es {
			got, what := l.Local(e), "Local"
			if a.target {
				got, what = l.LocalTarget(e), "LocalTarget"
			}
			if got != a.local {
				t.Errorf("%s:%d: %s(%s) = %v, want %v", tf.Name(), a.line, what, a.expr, got, a.local)
			}
		}
	}
}

// parseAnnotations parses a comment "// local: a; b.f; shared: c".
func parseAnnotations(line int, text string) []annotation {
	text = strings.TrimPrefix(text, "//")
	var anns []annotation
	local, target, started := false, false, false
	for _, part := range strings.Split(text, ";") {
		part = strings.TrimSpace(part)
		for _, k := range []struct {
			prefix        string
			local, target bool
		}{
			{"local:", true, false},
			{"shared:", false, false},
			{"local-target:", true, true},
			{"shared-target:", false, true},
		} {
			if strings.HasPrefix(part, k.prefix) {
				local, target, started = k.local, k.target, true
				part = strings.TrimSpace(strings.TrimPrefix(part, k.prefix))
			}
		}
		if !started {
			return nil // not an annotation
		}
		if part != "" {
			anns = append(anns, annotation{line, part, local, target})
		}
	}
	return anns
}
