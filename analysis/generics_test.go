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

// TestGenerics checks the locality of accesses through variables of type
// parameter type, with array, struct and pointer core types, aliased
// through slices, pointers and closures: each way of sharing must keep
// the access shared, and the same code without the sharing may be
// proved local.
func TestGenerics(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"array core type aliased through a slice", `package p
func f[A ~[4]int](a A) int {
	s := a[:]
	go func() { s[0] = 1 }()
	return a[0] // shared: a[0]
}`},
		{"array core type with a slice that stays local", `package p
func f[A ~[4]int](a A) int {
	s := a[:]
	s[0] = 1 // local: s[0]
	return a[0] // local: a[0]
}`},
		{"array core type aliased through a pointer", `package p
func f[A ~[4]int](a A) int {
	p := &a[1]
	go func() { *p = 1 }()
	return a[1] // shared: a[1]
}`},
		{"array core type with a pointer that stays local", `package p
func f[A ~[4]int](a A) int {
	p := &a[1]
	*p = 2 // local: *p
	return a[1] // local: a[1]
}`},
		{"array core type captured and written", `package p
func f[A ~[4]int](a A) int {
	go func() { a[2] = 1 }() // shared: a[2]
	return a[2] // shared: a[2]
}`},
		{"array core type captured read-only", `package p
func use(int) {}
func f[A ~[4]int](a A) {
	go func() { use(a[2]) }() // local: a[2]
	use(a[3]) // local: a[3]
}`},
		{"array core type unaliased", `package p
func f[A ~[4]int](a A) int {
	a[0] = 1 // local: a[0]
	return a[0] + a[1] // local: a[0]; a[1]
}`},
		{"array core type sliced into a goroutine's argument", `package p
func fill(s []int) { s[0] = 1 }
func f[A ~[4]int](a A) int {
	go fill(a[:])
	return a[0] // shared: a[0]
}`},
		{"array core type sliced into a call's argument", `package p
func fill(s []int) { s[0] = 1 }
func f[A ~[4]int](a A) int {
	fill(a[:])
	return a[0] // local: a[0]
}`},
		{"struct core type aliased through a pointer", `package p
func f[S ~struct{ n int }](s S) S {
	p := &s
	go func() { *p = S{n: 1} }()
	return s // shared: s
}`},
		{"struct core type with a pointer that stays local", `package p
func f[S ~struct{ n int }](s S) S {
	p := &s
	*p = S{n: 2} // local: *p
	return s // local: s
}`},
		{"struct core type captured and written", `package p
func f[S ~struct{ n int }](s S) S {
	go func() { s = S{} }() // shared: s
	return s // shared: s
}`},
		{"struct core type captured read-only", `package p
func use(any) {}
func f[S ~struct{ n int }](s S) {
	go func() { use(s) }() // local: s
}`},
		{"struct core type in a slice that escapes", `package p
func f[S ~struct{ n int }](s S) S {
	ss := make([]S, 1)
	go func() { ss[0] = s }()
	return ss[0] // shared: ss[0]
}`},
		{"struct core type in a slice that stays local", `package p
func f[S ~struct{ n int }](s S) S {
	ss := make([]S, 1)
	ss[0] = s // local: ss[0]
	return ss[0] // local: ss[0]
}`},
		{"pointer core type from a parameter", `package p
func f[P ~*int](p P) int {
	return *p // shared: *p; local: p
}`},
		{"pointer core type to a local allocation", `package p
func f[P ~*int]() int {
	p := P(new(int))
	*p = 1 // local: *p
	return *p // local: *p
}`},
		{"pointer core type aliased through a slice", `package p
func f[P ~*int]() int {
	q := P(new(int))
	ps := []P{q}
	go func() { *ps[0] = 1 }()
	return *q // shared: *q
}`},
		{"pointer core type captured by a closure", `package p
func f[P ~*int]() int {
	q := P(new(int))
	go func() { *q = 1 }() // shared: *q; local: q
	return *q // shared: *q
}`},
		{"pointer to array core type from a parameter", `package p
func f[P ~*[4]int](p P) int {
	return p[0] // shared: p[0]
}`},
		{"pointer to array core type to a local allocation", `package p
func f[P ~*[4]int]() int {
	q := P(new([4]int))
	q[0] = 1 // local: q[0]
	return q[0] // local: q[0]
}`},
		{"array or slice type set", `package p
func f[T [2]int | []int](x T) int {
	x[0] = 1 // shared: x[0]
	return x[1] // shared: x[1]
}`},
		{"array or slice type set, the variable itself", `package p
func f[T [2]int | []int](x T) T {
	var y T
	y = x // local: y
	return y // local: y
}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSnippet(t, tt.src) })
	}
}
