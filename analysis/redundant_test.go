package analysis_test

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/racegen/racegen/analysis"
)

// TestRedundant checks which accesses Variables.Redundant finds redundant
// in small functions. Every read or write of a field, element, pointer
// target or package-level variable counts as an access, as the
// instrumenter would hook it; a line's comment "// redundant: e1, e2"
// lists the expressions of the line that are redundant, in order, and a
// line without one must have none.
func TestRedundant(t *testing.T) {
	const decls = `package p
type T struct {
	x, y int
	q    *T
	s    []int
	a    [4]int
	in   struct{ z int }
}
type E struct{ T }
type EP struct{ *T }
var (
	g  int
	ga [4]int
	gs []int
	gt T
	ch chan int
	mu interface{ Lock(); Unlock() }
)
func call() {}
`
	tests := []struct {
		name, src string
	}{
		{"repeated read", `func f(p *T) int {
	a := p.x
	return a + p.x // redundant: p.x
}`},
		{"read after write", `func f(p *T) int {
	p.x = 1
	return p.x // redundant: p.x
}`},
		{"write after read", `func f(p *T) {
	a := p.x
	p.x = a + 1
}`},
		{"write after write", `func f(p *T) {
	p.x = 1
	p.x = 2 // redundant: p.x
}`},
		{"other field", `func f(p *T) int {
	p.x = 1
	return p.y
}`},
		{"a call synchronizes", `func f(p *T) int {
	a := p.x
	call()
	return a + p.x
}`},
		{"a method call synchronizes", `func f(p *T) int {
	a := p.x
	mu.Lock()
	return a + p.x
}`},
		{"a receive synchronizes", `func f(p *T) int {
	a := p.x
	<-ch
	return a + p.x
}`},
		{"a send synchronizes", `func f(p *T) int {
	a := p.x
	ch <- 1
	return a + p.x
}`},
		{"go synchronizes", `func f(p *T) int {
	a := p.x
	go call()
	return a + p.x
}`},
		{"defer synchronizes", `func f(p *T) int {
	a := p.x
	defer call()
	return a + p.x
}`},
		{"panic synchronizes", `func f(p *T, b bool) int {
	a := p.x
	if b {
		panic(a)
	}
	return a + p.x
}`},
		{"builtins do not", `func f(p *T) int {
	p.s = append(p.s, p.x) // redundant: p.s
	n := copy(p.s, p.s) // redundant: p.s, p.s
	return n + len(p.s) + min(p.x, 3) // redundant: p.s, p.x
}`},
		{"a statement with a call judges none", `func f(p *T) int {
	a := p.x
	return a + p.x + len(p.s) + g2()
}
func g2() int { return 0 }`},
		{"pointer reassigned", `func f(p, r *T) int {
	a := p.x
	p = r
	return a + p.x
}`},
		{"pointer loaded from memory", `func f(p *T) int {
	a := p.q.x
	return a + p.q.x // redundant: p.q
}`},
		{"embedded struct", `func f(p *E) int {
	a := p.x
	return a + p.T.x // redundant: p.T.x
}`},
		{"embedded pointer", `func f(p *EP) int {
	a := p.x
	return a + p.x
}`},
		{"struct field of a struct", `func f(p *T) int {
	p.in.z = 1
	return p.in.z // redundant: p.in.z
}`},
		{"explicit dereference", `func f(p *T) int {
	a := (*p).x
	b := *p
	return a + b.y + p.x + (*p).y // redundant: p.x
}`},
		{"array field", `func f(p *T, i int) int {
	p.a[i] = 1
	return p.a[i] + p.a[1] // redundant: p.a[i]
}`},
		{"slice field element", `func f(p *T, i int) int {
	p.s[i] = 1
	return p.s[i] // redundant: p.s
}`},
		{"slice variable", `func f(s []int, i int) int {
	s[i] = 1
	return s[i] + s[2] // redundant: s[i]
}`},
		{"index written", `func f(s []int, i int) int {
	s[i] = 1
	i++
	return s[i]
}`},
		{"constant indexes", `func f(s []int) int {
	s[1] = 1
	return s[1] + s[0] + s[2-1] // redundant: s[1], s[2 - 1]
}`},
		{"globals", `func f() int {
	g = 1
	ga[2] = g // redundant: g
	gt.x = ga[2] // redundant: ga[2]
	return g + ga[2] + gt.x + gs[0] + gs[0] // redundant: g, ga[2], gt.x, gs
}`},
		{"short circuit", `func f(p *T, b bool) int {
	if b || p.x > 0 {
		return p.x
	}
	if b && p.y > 0 {
		return p.y // redundant: p.y
	}
	if b || p.q != nil {
		return 0
	} else {
		return len(p.q.s) // redundant: p.q
	}
}`},
		{"after an if", `func f(p *T, b bool) int {
	a := p.x
	if b {
		a += p.y
	}
	return a + p.x + p.y // redundant: p.x
}`},
		{"after an if that synchronizes", `func f(p *T, b bool) int {
	a := p.x
	if b {
		call()
	}
	return a + p.x
}`},
		{"loop body", `func f(p *T, n int) (t int) {
	a := p.x
	for i := 0; i < n; i++ {
		t += p.x // redundant: p.x
	}
	return a + t + p.x // redundant: p.x
}`},
		{"loop that synchronizes", `func f(p *T, n int) (t int) {
	a := p.x
	for i := 0; i < n; i++ {
		t += p.x
		call()
	}
	return a + t + p.x
}`},
		{"loop condition", `func f(p *T) int {
	for p.x > 0 {
		p.x-- // a write: the read does not cover it
	}
	return p.x // redundant: p.x
}`},
		{"endless loop", `func f(p *T) {
	a := p.x
	for {
		p.y = a + p.x // redundant: p.x
	}
}`},
		{"continue skips the body", `func f(p *T, n int) {
	for i := 0; i < n; p.y++ {
		if i > 3 {
			continue
		}
		p.y = 1
	}
}`},
		{"range", `func f(p *T) (t int) {
	for i, v := range p.s {
		t += v + p.s[i] // redundant: p.s
	}
	for range ch {
		t += p.x
	}
	return t
}`},
		{"switch", `func f(p *T) int {
	switch p.x {
	case 1:
		return p.x // redundant: p.x
	case p.y:
		return p.y
	}
	return p.x // redundant: p.x
}`},
		{"select", `func f(p *T) int {
	a := p.x
	select {
	default:
		return p.x
	}
	return a
}`},
		{"function literals are functions of their own", `func f(p *T) int {
	a := p.x
	h := func() int {
		b := p.x
		return b + p.x // redundant: p.x
	}
	return a + h()
}`},
		{"goto", `func f(p *T) int {
	a := p.x
L:
	a += p.x
	if a < 10 {
		goto L
	}
	return a
}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRedundant(t, decls+tt.src)
		})
	}
}

// checkRedundant type-checks src, runs Redundant on each of its
// functions with every access hooked, and compares the redundant accesses
// with the comments.
func checkRedundant(t *testing.T, src string) {
	t.Helper()
	p := loadSource(t, src, "go1.26")
	fset, f, info := p.fset, p.files[0], p.info
	vs := analysis.NewVariables(p.files, p.pkg, info)
	got := make(map[int][]string)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		red := vs.Redundant(fd.Body, accessesOf(info, fd.Body))
		var es []ast.Expr
		for e := range red {
			es = append(es, e)
		}
		slices.SortFunc(es, func(a, b ast.Expr) int { return int(a.Pos() - b.Pos()) })
		for _, e := range es {
			line := fset.Position(e.Pos()).Line
			got[line] = append(got[line], types.ExprString(e))
		}
	}
	want := make(map[int][]string)
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if text, ok := strings.CutPrefix(c.Text, "// redundant: "); ok {
				line := fset.Position(c.Pos()).Line
				for _, e := range strings.Split(text, ",") {
					want[line] = append(want[line], strings.TrimSpace(e))
				}
			}
		}
	}
	lines := strings.Split(src, "\n")
	for line := 1; line <= len(lines); line++ {
		if !slices.Equal(got[line], want[line]) {
			t.Errorf("line %d %q: redundant %q, want %q", line, strings.TrimSpace(lines[line-1]), got[line], want[line])
		}
	}
}

// accessesOf returns the accesses of body as the instrumenter would hook
// them: each read or write of a package-level variable, a field, a
// pointer's target or an element of a slice or array, but not the
// operands that only locate a field or element of a struct or array,
// nor the operand of &.
func accessesOf(info *types.Info, body *ast.BlockStmt) map[ast.Expr]bool {
	accesses := make(map[ast.Expr]bool)
	places := make(map[ast.Expr]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				accesses[l] = true
			}
		case *ast.IncDecStmt:
			accesses[n.X] = true
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				places[ast.Unparen(n.X)] = true
			}
		case *ast.SelectorExpr:
			if _, ptr := info.TypeOf(n.X).Underlying().(*types.Pointer); !ptr {
				places[ast.Unparen(n.X)] = true
			}
		case *ast.IndexExpr:
			if _, arr := info.TypeOf(n.X).Underlying().(*types.Array); arr {
				places[ast.Unparen(n.X)] = true
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok || places[e] {
			return true
		}
		if _, ok := accesses[e]; ok {
			return true
		}
		switch x := e.(type) {
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
				accesses[e] = false
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
				accesses[e] = false
			}
		case *ast.IndexExpr:
			if _, isMap := info.TypeOf(x.X).Underlying().(*types.Map); !isMap {
				accesses[e] = false
			}
		case *ast.StarExpr:
			if info.Types[x].IsValue() {
				accesses[e] = false
			}
		}
		return true
	})
	for e := range accesses {
		if id, ok := e.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); !ok || v.Parent() != v.Pkg().Scope() {
				delete(accesses, e) // a local variable, or _
			}
		}
	}
	return accesses
}
