package analysis_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/racegen/racegen/analysis"
)

// TestCoreType checks CoreType and MayBeArray on the type parameters of
// various constraints: their answers decide whether an element of a
// variable belongs to the variable.
func TestCoreType(t *testing.T) {
	tests := []struct {
		constraint string
		core       string // CoreType's answer, "" for nil
		mayBeArray bool
	}{
		{"~[4]int", "[4]int", true},
		{"[4]int", "[4]int", true},
		{"A4 | B4", "[4]int", true},
		{"Arrays", "[4]int", true},
		{"interface{ Arrays; String() string }", "[4]int", true},
		{"~[4]int | ~[]int", "", true},
		{"interface{ ~[4]int | ~[]int; ~[]int }", "[]int", false},
		{"~[]int", "[]int", false},
		{"~[]int | ~map[int]int", "", false},
		{"~*[4]int", "*[4]int", false},
		{"~struct{ n int }", "struct{n int}", false},
		{"any", "", true},
		{"comparable", "", true},
		{"interface{ String() string }", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.constraint, func(t *testing.T) {
			src := `package p
type A4 [4]int
type B4 [4]int
type Arrays interface{ ~[4]int }
func f[T ` + tt.constraint + `]() {}`
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", src, 0)
			if err != nil {
				t.Fatal(err)
			}
			pkg, err := new(types.Config).Check("p", fset, []*ast.File{f}, nil)
			if err != nil {
				t.Fatal(err)
			}
			tp := pkg.Scope().Lookup("f").Type().(*types.Signature).TypeParams().At(0)
			core := ""
			if c := analysis.CoreType(tp); c != nil {
				core = c.String()
			}
			if core != tt.core {
				t.Errorf("CoreType = %q, want %q", core, tt.core)
			}
			if got := analysis.MayBeArray(tp); got != tt.mayBeArray {
				t.Errorf("MayBeArray = %v, want %v", got, tt.mayBeArray)
			}
		})
	}
	for _, tt := range []struct {
		t          types.Type
		mayBeArray bool
	}{
		{types.NewArray(types.Typ[types.Int], 2), true},
		{types.NewSlice(types.Typ[types.Int]), false},
		{types.NewPointer(types.NewArray(types.Typ[types.Int], 2)), false},
		{nil, true},
	} {
		if got := analysis.MayBeArray(tt.t); got != tt.mayBeArray {
			t.Errorf("MayBeArray(%v) = %v, want %v", tt.t, got, tt.mayBeArray)
		}
	}
}
