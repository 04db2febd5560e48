package analysis_test

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"testing"
	"time"

	"github.com/racegen/racegen/analysis"
)

// stdPackages are real packages, of varied style, the analysis must handle.
var stdPackages = []string{
	"bufio",
	"bytes",
	"compress/flate",
	"container/list",
	"encoding/csv",
	"encoding/json",
	"go/scanner",
	"net/url",
	"regexp",
	"regexp/syntax",
	"sort",
	"strconv",
	"strings",
	"text/template/parse",
}

// TestStdlib runs the analysis over standard library packages: it must
// not fail on any, and the share of accesses found local must be sane (a
// little under a half is typical: most accesses go through parameters and
// receivers, which the analysis never calls local).
func TestStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("loads standard library packages")
	}
	fset := token.NewFileSet()
	imp := newImporter(fset)
	var considered, local, memConsidered, memLocal int
	start := time.Now()
	for _, path := range stdPackages {
		bp, err := build.Import(path, "", build.FindOnly)
		if err != nil {
			t.Fatalf("finding %s: %v", path, err)
		}
		p := load(t, fset, imp, bp.Dir, path)
		l, err := analysis.Package(p.fset, p.files, p.pkg, p.info)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		c, n := l.Stats()
		mc, mn := memoryAccesses(p.files, p.info, l)
		t.Logf("%-20s %6d accesses, %6d local (%4.1f%%); fields, elements, derefs: %5d, %5d local (%4.1f%%)",
			path, c, n, pct(n, c), mc, mn, pct(mn, mc))
		memConsidered += mc
		memLocal += mn
		if c == 0 {
			t.Errorf("%s: no access expressions considered", path)
		}
		considered += c
		local += n
	}
	t.Logf("total %d accesses, %d local (%.1f%%); fields, elements, derefs: %d, %d local (%.1f%%); in %v",
		considered, local, pct(local, considered), memConsidered, memLocal, pct(memLocal, memConsidered),
		time.Since(start).Round(time.Millisecond))
	if share := pct(local, considered); share < 5 || share > 80 {
		t.Errorf("share of local accesses is %.1f%%, want between 5%% and 80%%", share)
	}
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// memoryAccesses counts the field, element and dereference access
// expressions of files, and those of them l reports local: the accesses
// that go through memory rather than naming a variable, which a plain
// "is it a lifted variable" test could not drop.
func memoryAccesses(files []*ast.File, info *types.Info, l *analysis.Locality) (considered, local int) {
	count := func(e ast.Expr) {
		considered++
		if l.Local(e) {
			local++
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch e := n.(type) {
			case *ast.SelectorExpr:
				if sel, ok := info.Selections[e]; ok && sel.Kind() == types.FieldVal {
					count(e)
				}
			case *ast.IndexExpr:
				switch info.TypeOf(e.X).Underlying().(type) {
				case *types.Array, *types.Slice, *types.Map, *types.Pointer:
					count(e)
				}
			case *ast.StarExpr:
				if tv, ok := info.Types[e]; ok && tv.IsValue() {
					count(e)
				}
			}
			return true
		})
	}
	return considered, local
}
