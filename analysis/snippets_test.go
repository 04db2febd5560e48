package analysis_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/racegen/racegen/analysis"
)

// TestSnippets checks the annotations of small packages given as source,
// for cases that depend on package-wide properties.
func TestSnippets(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"constructor", `package p
type T struct{ a int }
func newT() *T { return &T{} }
func f() int {
	t := newT()
	t.a = 1 // local: t.a
	return t.a
}`},
		{"constructor called from assembly", `package p
type T struct{ a int }
func asm()
func newT() *T { return &T{} }
func f() int {
	t := newT()
	t.a = 1 // shared: t.a
	return t.a
}`},
		{"constructor pushed by linkname", `package p
import _ "unsafe"
type T struct{ a int }
//go:linkname newT
func newT() *T { return &T{} }
func f() int {
	t := newT()
	t.a = 1 // shared: t.a
	return t.a
}`},
		{"constructor used as a value", `package p
type T struct{ a int }
var mk = newT
func newT() *T { return &T{} }
func f() int {
	t := newT()
	t.a = 1 // shared: t.a
	return t.a
}`},
		{"exported constructor", `package p
type T struct{ a int }
func NewT() *T { return &T{} }
func f() int {
	t := NewT()
	t.a = 1 // shared: t.a
	return t.a
}`},
		{"unknown call result", `package p
import "bytes"
func f() byte {
	b := bytes.Repeat([]byte("x"), 3)
	b[0] = 'y' // shared: b[0]
	return b[1] // shared: b[1]
}`},
		{"conversion copies", `package p
func f(s string) byte {
	b := []byte(s)
	b[0] = 'y' // local: b[0]
	return b[0] // local: b[0]
}`},
		{"conversion result escapes", `package p
var g []byte
func f(s string) byte {
	b := []byte(s)
	g = b
	b[0] = 'y' // shared: b[0]
	return b[0] // shared: b[0]
}`},
		{"package-level variable", `package p
var x int
func f() int {
	x++ // shared: x
	return x // shared: x
}`},
		{"range without a Go version", `package p
func use(int) {}
func f(s []int) {
	// Without a known version, the loop may write one v every
	// iteration.
	for _, v := range s {
		go func() { use(v) }() // shared: v
	}
}`},
		{"read-only capture", `package p
func use(int) {}
func f(n int) {
	x := n
	go func() { use(x + n) }() // local: x; n
}`},
		{"init closure", `package p
var f = func() int {
	y := 0
	y++ // local: y
	return y
}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSnippet(t, tt.src) })
	}
}

// checkSnippet type-checks and analyses the package src, in a file of
// its own, and checks its annotations.
func checkSnippet(t *testing.T, src string) {
	t.Helper()
	p := loadSource(t, src, "")
	l, err := analysis.Package(p.fset, p.files, p.pkg, p.info)
	if err != nil {
		t.Fatal(err)
	}
	checkSource(t, p.fset, p.files[0], src, l)
}

// TestNil checks that a nil Locality, and expressions it does not know,
// report false.
func TestNil(t *testing.T) {
	var l *analysis.Locality
	if l.Local(ast.NewIdent("x")) {
		t.Error("nil Locality reports local")
	}
	if c, n := l.Stats(); c != 0 || n != 0 {
		t.Errorf("nil Locality Stats = %d, %d; want 0, 0", c, n)
	}
}

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
