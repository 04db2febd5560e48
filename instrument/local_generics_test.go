package instrument

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"github.com/racegen/racegen/analysis"
)

// TestGenericHooks checks which accesses through variables of type
// parameter type get a hook when the instrumenter is wired to the
// analysis as racegen wires it: with array, struct and pointer core types,
// aliased through slices, pointers and closures (and the body of a range
// over a function, which is a closure too), each way of sharing must keep
// its hook, and the same code without the sharing may lose it. A line's
// comment "// hooked: e1; e2; unhooked: e3" lists the access expressions
// of the line, by their source text, that must and must not get a hook.
func TestGenericHooks(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"array core type aliased through a slice", `package p
func f[A ~[4]int](a A) int {
	s := a[:]
	go func() { s[0] = 1 }()
	return a[0] // hooked: a[0]; unhooked: a
}`},
		{"array core type with a slice that stays local", `package p
func f[A ~[4]int](a A) int {
	s := a[:]
	s[0] = 1 // unhooked: s[0]
	return a[0] // unhooked: a[0]; a
}`},
		{"array core type aliased through a pointer", `package p
func f[A ~[4]int](a A) int {
	p := &a[1]
	go func() { *p = 1 }()
	return a[1] // hooked: a[1]; unhooked: a
}`},
		{"array core type sliced into a goroutine's argument", `package p
func fill(s []int) { s[0] = 1 }
func f[A ~[4]int](a A) int {
	go fill(a[:])
	return a[0] // hooked: a[0]
}`},
		{"array core type captured and written", `package p
func f[A ~[4]int](a A) int {
	go func() { a[2] = 1 }() // hooked: a[2]
	return a[2] // hooked: a[2]
}`},
		{"array core type captured read-only", `package p
func use(int) {}
func f[A ~[4]int](a A) {
	go func() { use(a[2]) }() // unhooked: a[2]
	use(a[3]) // unhooked: a[3]
}`},
		{"array core type unaliased", `package p
func f[A ~[4]int](a A) int {
	a[0] = 1 // unhooked: a[0]
	return a[1] // unhooked: a[1]
}`},
		{"struct core type aliased through a pointer", `package p
func f[S ~struct{ n int }](s S) S {
	p := &s
	go func() { *p = S{n: 1} }()
	return s // hooked: s
}`},
		{"struct core type with a pointer that stays local", `package p
func f[S ~struct{ n int }](s S) S {
	p := &s
	*p = S{n: 2} // unhooked: *p
	return s // unhooked: s
}`},
		{"struct core type captured and written", `package p
func f[S ~struct{ n int }](s S) S {
	go func() { s = S{} }() // hooked: s
	return s // hooked: s
}`},
		{"struct core type in a slice that escapes", `package p
func f[S ~struct{ n int }](s S) S {
	ss := make([]S, 1)
	go func() { ss[0] = s }()
	return ss[0] // hooked: ss[0]
}`},
		{"pointer core type from a parameter", `package p
func f[P ~*int](p P) int {
	return *p // hooked: *p; unhooked: p
}`},
		{"pointer core type to a local allocation", `package p
func f[P ~*int]() int {
	p := P(new(int))
	*p = 1 // unhooked: *p
	return *p // unhooked: *p
}`},
		{"pointer core type aliased through a slice", `package p
func f[P ~*int]() int {
	q := P(new(int))
	ps := []P{q}
	go func() { *ps[0] = 1 }()
	return *q // hooked: *q
}`},
		{"pointer to array core type from a parameter", `package p
func f[P ~*[4]int](p P) int {
	return p[0] // hooked: p[0]
}`},
		{"array or slice type set", `package p
func f[T [2]int | []int](x T) int {
	x[0] = 1 // hooked: x[0]
	return x[1] // hooked: x[1]
}`},
		{"range over a function that may call the body anywhere", `package p
func f(seq func(func(int) bool)) int {
	n := 0
	for v := range seq {
		n += v // hooked: n
	}
	return n // hooked: n
}`},
		{"range over a function that calls the body in place", `package p
func seq(yield func(int) bool) {
	for i := 0; i < 3 && yield(i); i++ {
	}
}
func f() int {
	n := 0
	for v := range seq {
		n += v // unhooked: n
	}
	return n // unhooked: n
}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkHooks(t, tt.src) })
	}
}

// checkHooks instruments the package src with the analysis's answers and
// checks the "hooked:" and "unhooked:" annotations of its lines.
func checkHooks(t *testing.T, src string) {
	t.Helper()
	fset := token.NewFileSet()
	f, pkg, info := checkSrc(t, fset, mapImporter{}, "p", src)
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
	if n := len(hooked); n < res.Sites {
		t.Fatalf("%d sites hooked, but Local was asked about %d", res.Sites, n)
	}
	tf := fset.File(f.Pos())
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			line := tf.Line(c.Pos())
			for _, a := range hookAnnotations(c.Text) {
				var found bool
				ast.Inspect(f, func(n ast.Node) bool {
					e, ok := n.(ast.Expr)
					if !ok || tf.Line(e.Pos()) != line || src[tf.Offset(e.Pos()):tf.Offset(e.End())] != a.expr {
						return true
					}
					found = true
					if hooked[e] != a.hooked {
						t.Errorf("line %d: %s hooked = %v, want %v", line, a.expr, hooked[e], a.hooked)
					}
					return true
				})
				if !found {
					t.Errorf("line %d: annotation %q matches no expression", line, a.expr)
				}
			}
		}
	}
}

// A hookAnnotation says whether the expressions with source text expr on
// its line must get a hook.
type hookAnnotation struct {
	expr   string
	hooked bool
}

// hookAnnotations parses a comment "// hooked: a; b; unhooked: c".
func hookAnnotations(text string) []hookAnnotation {
	var anns []hookAnnotation
	hooked, started := false, false
	for _, part := range strings.Split(strings.TrimPrefix(text, "//"), ";") {
		part = strings.TrimSpace(part)
		for _, k := range []struct {
			prefix string
			hooked bool
		}{{"hooked:", true}, {"unhooked:", false}} {
			if rest, ok := strings.CutPrefix(part, k.prefix); ok {
				hooked, started, part = k.hooked, true, strings.TrimSpace(rest)
			}
		}
		if !started {
			return nil
		}
		if part != "" {
			anns = append(anns, hookAnnotation{part, hooked})
		}
	}
	return anns
}
