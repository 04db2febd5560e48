package analysis

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"strconv"
	"strings"
)

// Redundant returns the accesses, among those of the function body body,
// whose hook adds nothing that an earlier hook of the same call does not
// already record: each is preceded, on every path from the function's
// entry, by an access to the same memory that is a write or, if it is a
// read itself, of any kind, with no synchronization in between.
//
// accesses holds the access expressions of body that the instrumenter
// gave a hook (value true for a write, false for a read); an expression
// it does not hold is taken to access nothing. Function literals in body
// are functions of their own: their accesses are judged on their own
// paths and never cover, nor are covered by, those of the enclosing
// function.
//
// Why skipping such an access loses no race FastTrack would find: let a1
// be the earlier access and a2 the later one, by goroutine t, with no
// release or acquire by t between them, so both have the same epoch. If
// an access c by another goroutine races with a2 (they conflict and
// neither happens before the other), then c conflicts with a1 too (a1 is
// a write, or both are reads and c is a write), c cannot happen before
// a1 (it would happen before a2), and a1 cannot happen before c (only a
// release of t after a1 could order it, and t's next release comes after
// a2, which would order a2 before c). So c races with a1, which is
// recorded: c is checked against it, or it against c, as a2 would have
// been. What can change is which of the pair a report names, and in a
// sampling build, an access whose sampling period began between a1 and
// a2 is not recorded: both can only lose a report, never make one.
//
// The argument does not need a1 to run first, only both to run in one
// epoch, so within a statement that does not synchronize the order of
// its accesses, which Go leaves unspecified, does not matter: in
// x.n = x.n + 1 the write covers the read. Should the statement panic
// between the two, the read goes unrecorded: a lost report again.
//
// Two accesses are to the same memory when their expressions have the
// same form over the same variables and those variables cannot change in
// between: the address must be computed from package-level variables,
// local variables that are never written after their initialization (see
// Variables), constants, field offsets and at most one pointer or slice
// held in such a local variable. A field reached through a pointer loaded
// from memory (x.p.f), an element of a slice field (x.s[i]) or a map
// element never matches, since the memory holding the pointer may change.
//
// Synchronization is anything that might release or acquire: a call of
// anything but a conversion or a builtin that neither panics nor closes,
// a channel operation, select, go and defer statements, and a range over
// a channel or a function. A function with a goto is not judged at all.
func (vs *Variables) Redundant(body *ast.BlockStmt, accesses map[ast.Expr]bool) map[ast.Expr]bool {
	r := &redundancy{vs: vs, accesses: accesses, redundant: make(map[ast.Expr]bool), ids: make(map[*types.Var]int)}
	if body == nil {
		return r.redundant
	}
	r.function(body)
	ast.Inspect(body, func(n ast.Node) bool {
		if fl, ok := n.(*ast.FuncLit); ok {
			r.function(fl.Body)
		}
		return true
	})
	return r.redundant
}

// redundancy is the state of one call of Redundant.
type redundancy struct {
	vs        *Variables
	accesses  map[ast.Expr]bool
	redundant map[ast.Expr]bool
	ids       map[*types.Var]int // short names for the variables of keys
}

// covered maps the key of each memory location that an earlier access
// recorded, on every path to the point being analyzed, to whether one of
// those accesses was a write.
type covered map[string]bool

// function judges the accesses of one function body, those of the
// function literals in it excepted.
func (r *redundancy) function(body *ast.BlockStmt) {
	if hasGoto(body) {
		return
	}
	r.list(body.List, covered{})
}

// hasGoto reports whether body, outside its function literals, has a
// goto statement, which can make code run again without the paths the
// analysis follows.
func hasGoto(body *ast.BlockStmt) bool {
	return anyNode(body, func(n ast.Node) bool {
		b, ok := n.(*ast.BranchStmt)
		return ok && b.Tok == token.GOTO
	})
}

// anyNode reports whether f holds for a node of n outside the bodies of
// its function literals, which are functions of their own.
func anyNode(n ast.Node, f func(ast.Node) bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		found = found || f(n)
		return !found
	})
	return found
}

// list analyzes the statements of a block that starts with the accesses
// in c covered, and returns what is covered after them. It may change c.
func (r *redundancy) list(stmts []ast.Stmt, c covered) covered {
	for _, s := range stmts {
		c = r.stmt(s, c)
	}
	return c
}

// stmt analyzes s, which starts with the accesses in c covered, and
// returns what is covered after it. It may change c.
func (r *redundancy) stmt(s ast.Stmt, c covered) covered {
	switch s := s.(type) {
	case nil:
		return c
	case *ast.BlockStmt:
		return r.list(s.List, c)
	case *ast.LabeledStmt:
		return r.stmt(s.Stmt, c)
	case *ast.IfStmt:
		c = r.stmt(s.Init, c)
		c = r.expr(s.Cond, c)
		r.stmt(s.Body, r.branch(s.Cond, true, c))
		if s.Else != nil {
			r.stmt(s.Else, r.branch(s.Cond, false, c))
		}
		return r.after(s, c)
	case *ast.ForStmt:
		c = r.stmt(s.Init, c)
		if r.synchronizes(s) {
			// Every iteration after the first may follow a
			// synchronization, and so may the loop's end.
			r.stmt(s.Body, covered{})
			return covered{}
		}
		c = r.expr(s.Cond, c)
		r.stmt(s.Body, r.branch(s.Cond, true, c))
		// A continue statement reaches the post statement from the
		// middle of the body.
		r.stmt(s.Post, maps.Clone(c))
		return c
	case *ast.RangeStmt:
		if r.synchronizes(s) {
			r.stmt(s.Body, covered{})
			return covered{}
		}
		c = r.expr(s.X, c)
		body := maps.Clone(c)
		body = r.expr(s.Key, body)
		body = r.expr(s.Value, body)
		r.stmt(s.Body, body)
		return c
	case *ast.SwitchStmt:
		c = r.stmt(s.Init, c)
		c = r.expr(s.Tag, c)
		return r.clauses(s, s.Body, c)
	case *ast.TypeSwitchStmt:
		c = r.stmt(s.Init, c)
		c = r.stmt(s.Assign, c)
		return r.clauses(s, s.Body, c)
	case *ast.SelectStmt:
		for _, cl := range s.Body.List {
			r.list(cl.(*ast.CommClause).Body, covered{})
		}
		return covered{}
	case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.ReturnStmt, *ast.DeclStmt:
		return r.simple(s, c)
	case *ast.BranchStmt, *ast.EmptyStmt:
		return c
	}
	// Send, go and defer statements synchronize, and anything else is
	// not understood.
	return covered{}
}

// clauses analyzes the case clauses of the switch statement s, whose
// header left c covered, and returns what is covered after s.
func (r *redundancy) clauses(s ast.Stmt, body *ast.BlockStmt, c covered) covered {
	// A case clause is reached after the case expressions before it,
	// not after all of its own, and maybe from the clause before it
	// (fallthrough): its body starts with only the header's accesses
	// covered, and none if some path to it may have synchronized.
	start := c
	for _, cl := range body.List {
		cc := cl.(*ast.CaseClause)
		for _, e := range cc.List {
			if r.synchronizes(e) {
				start = covered{}
			}
		}
		if n := len(cc.Body); n > 0 {
			if b, ok := cc.Body[n-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH && r.synchronizes(body) {
				start = covered{}
			}
		}
	}
	for _, cl := range body.List {
		cc := cl.(*ast.CaseClause)
		for _, e := range cc.List {
			r.judge(e, start, false)
		}
		r.list(cc.Body, maps.Clone(start))
	}
	return r.after(s, c)
}

// after returns what is covered after the compound statement s, whose
// header left c covered: c if nothing in s synchronizes, nothing
// otherwise. The accesses in its bodies run on some paths only.
func (r *redundancy) after(s ast.Stmt, c covered) covered {
	if r.synchronizes(s) {
		return covered{}
	}
	return c
}

// simple analyzes a statement without nested statements (function
// literals aside).
func (r *redundancy) simple(s ast.Stmt, c covered) covered {
	if r.synchronizes(s) {
		// Go leaves the order of a statement's accesses and its calls
		// unspecified, so none of its accesses can be judged.
		return covered{}
	}
	r.judge(s, c, true)
	return c
}

// expr analyzes the expression e (nil for none), evaluated where c is
// covered, and returns what is covered after it.
func (r *redundancy) expr(e ast.Expr, c covered) covered {
	if e == nil {
		return c
	}
	if r.synchronizes(e) {
		return covered{}
	}
	r.judge(e, c, true)
	return c
}

// judge marks redundant the accesses in n that c covers, and, if add is
// set, adds the others to c. n does not synchronize, so its accesses all
// have one epoch and their order among themselves does not matter.
//
// The right operand of && and || is evaluated on some paths only: its
// accesses are judged, but not added.
func (r *redundancy) judge(n ast.Node, c covered, add bool) {
	r.visit(n, c, true, add)
}

// branch returns a copy of c, which covers what the evaluation of cond
// certainly accessed, with what cond accessed when its value is v: the
// right operands of a chain of && if v is true, of || if it is false.
func (r *redundancy) branch(cond ast.Expr, v bool, c covered) covered {
	c = maps.Clone(c)
	if cond == nil {
		return c
	}
	if r.synchronizes(cond) {
		return covered{}
	}
	op := token.LAND
	if !v {
		op = token.LOR
	}
	var chain func(e ast.Expr)
	chain = func(e ast.Expr) {
		if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == op {
			chain(b.X)
			chain(b.Y)
			r.visit(b.Y, c, false, true)
		}
	}
	chain(cond)
	return c
}

// visit walks n, marking redundant the accesses c covers if mark is set,
// and adding to c those certainly made if add is set.
func (r *redundancy) visit(n ast.Node, c covered, mark, add bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		switch x := e.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				r.visit(x.X, c, mark, add)
				r.visit(x.Y, c, mark, false)
				return false
			}
		}
		write, ok := r.accesses[e]
		if !ok {
			return true
		}
		k, ok := r.key(e)
		if !ok {
			return true
		}
		if w, ok := c[k]; ok && (w || !write) {
			if mark {
				r.redundant[e] = true
			}
		} else if add {
			c[k] = w || write
		}
		return true
	})
}

// synchronizes reports whether running n may release or acquire, the
// bodies of its function literals aside.
func (r *redundancy) synchronizes(n ast.Node) bool {
	return anyNode(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			return !r.quiet(n)
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		case *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt, *ast.SelectStmt:
			return true
		case *ast.RangeStmt:
			switch CoreType(r.vs.info.TypeOf(n.X)).(type) {
			case *types.Chan, *types.Signature:
				return true
			}
		}
		return false
	})
}

// quiet reports whether the call c neither synchronizes nor runs code
// that may: a conversion, or a builtin other than panic and close.
func (r *redundancy) quiet(c *ast.CallExpr) bool {
	tv, ok := r.vs.info.Types[ast.Unparen(c.Fun)]
	if !ok {
		return false
	}
	if tv.IsType() {
		return true
	}
	switch BuiltinName(r.vs.info, c.Fun) {
	case "", "panic", "close", "print", "println", "recover":
		return false
	}
	return true
}

// key returns a name for the memory location the access expression e
// denotes that is the same for two expressions exactly when they denote
// the same location throughout a function call, and false if e's location
// may move while the call runs (see Redundant).
func (r *redundancy) key(e ast.Expr) (string, bool) {
	info := r.vs.info
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := info.Uses[x].(*types.Var); ok && Global(v) {
			return r.name(v), true
		}
	case *ast.SelectorExpr:
		sel, ok := info.Selections[x]
		if !ok {
			if v, ok := info.Uses[x.Sel].(*types.Var); ok && Global(v) {
				return r.name(v), true // a qualified identifier
			}
			return "", false
		}
		if sel.Kind() != types.FieldVal {
			return "", false
		}
		path, ok := fieldPath(info.TypeOf(x.X), sel.Index())
		if !ok {
			return "", false
		}
		base, ok := r.operand(x.X)
		if !ok {
			return "", false
		}
		return base + path, true
	case *ast.IndexExpr:
		t := info.TypeOf(x.X)
		if t == nil {
			return "", false
		}
		idx, ok := r.index(x.Index)
		if !ok {
			return "", false
		}
		var base string
		switch u := t.Underlying().(type) {
		case *types.Array:
			base, ok = r.key(x.X)
		case *types.Slice:
			base, ok = r.pointer(x.X)
		case *types.Pointer:
			if _, arr := u.Elem().Underlying().(*types.Array); arr {
				base, ok = r.pointer(x.X)
			} else {
				ok = false
			}
		default:
			ok = false
		}
		if !ok {
			return "", false
		}
		return base + "[" + idx + "]", true
	case *ast.StarExpr:
		return r.pointer(x.X)
	}
	return "", false
}

// operand returns the key of the memory a field selection's operand x
// refers to: x's own location if it is a struct, its target if it is a
// pointer to one.
func (r *redundancy) operand(x ast.Expr) (string, bool) {
	t := r.vs.info.TypeOf(x)
	if t == nil {
		return "", false
	}
	if _, ok := t.Underlying().(*types.Pointer); ok {
		return r.pointer(x)
	}
	return r.key(x)
}

// pointer returns the key of the memory that x, a pointer or slice, refers
// to, if x is a local variable that is never written after its
// initialization. Only such a pointer is followed: one loaded from memory
// may change while the call runs.
func (r *redundancy) pointer(x ast.Expr) (string, bool) {
	v := r.readOnly(x)
	if v == nil {
		return "", false
	}
	return "*" + r.name(v), true
}

// readOnly returns the local variable x names if it is never written
// after its initialization, and nil otherwise.
func (r *redundancy) readOnly(x ast.Expr) *types.Var {
	if id, ok := ast.Unparen(x).(*ast.Ident); ok {
		if v := r.vs.local(id); v != nil && r.vs.readOnly(v) {
			return v
		}
	}
	return nil
}

// index returns the key of an index that cannot change during the call:
// a constant, or a local variable never written after its initialization.
func (r *redundancy) index(x ast.Expr) (string, bool) {
	tv, ok := r.vs.info.Types[x]
	if !ok {
		return "", false
	}
	if tv.Value != nil {
		if i, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
			return strconv.FormatInt(i, 10), true
		}
		return "", false
	}
	if v := r.readOnly(x); v != nil {
		return r.name(v), true
	}
	return "", false
}

// name returns a short name for the variable v, unique in the call.
func (r *redundancy) name(v *types.Var) string {
	id, ok := r.ids[v]
	if !ok {
		id = len(r.ids)
		r.ids[v] = id
	}
	return "v" + strconv.Itoa(id)
}

// fieldPath returns the key suffix of selecting the field at index path
// from a value of type t (or of the type t points to), and false if the
// path goes through an embedded pointer, whose target may change.
func fieldPath(t types.Type, path []int) (string, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	var b strings.Builder
	for i, idx := range path {
		s, ok := t.Underlying().(*types.Struct)
		if !ok || idx >= s.NumFields() {
			return "", false
		}
		f := s.Field(idx)
		b.WriteString("." + strconv.Itoa(idx))
		t = f.Type()
		if i < len(path)-1 {
			if _, ptr := t.Underlying().(*types.Pointer); ptr {
				return "", false
			}
		}
	}
	return b.String(), true
}
