package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Which loops' hooks can be hoisted (see hoist_emit.go for what hoisting
// emits). This file reasons about the original syntax and its types only.
//
// The range hooks record exactly the accesses the loop makes, in the same
// epoch: the body has no synchronization, so nothing orders one of its
// accesses differently from another, and recording them before the loop
// rather than during it changes no verdict. Each hook has the site of the
// access it stands for and the line of that access, so reports point at
// it. Exactness needs three things that the conditions below provide:
//
//   - Every hoisted access happens in every iteration: none is under an
//     if, or the right of && or ||, and the body cannot leave an
//     iteration early (no break, continue, return, goto or panic).
//   - The loop cannot panic once the condition holds: every index
//     expression of the body, hooked or not, is in the range checked, the
//     pointers its containers are reached through are not nil and the
//     indexes of the rows they are (x[i] in x[i][v]) are in range, and
//     nothing else in the body can panic (division and shifts only by
//     safe constants, conversions between basic types, comparisons of
//     basic values, pure builtins, lookups by a byte in a constant table
//     of 256 bytes or more).
//     When the condition fails, the instrumented loop runs and panics, or
//     not, as the original does; so does a loop that runs zero times,
//     which gets no hook.
//   - The ranges are those the loop touches: v is a local int that only
//     the loop's post statement changes, the bound and the offsets are
//     made of constants and locals of this goroutine that the body does
//     not assign, and the containers are reached through variables the
//     body does not assign, by fields and by elements at such offsets; the
//     body writes only such locals and elements of basic type, which
//     cannot be a container's header or a pointer leading to it.
//
// maxHoisted bounds the accesses of a hoisted loop, which each add to
// its condition.
const maxHoisted = 16

// A hoistable is a counted loop whose access hooks can all be hoisted,
// as its syntax shows it: the loop variable, its range of values, the
// accesses of the body and what the condition must check before them.
type hoistable struct {
	v      *types.Var
	init   ast.Expr      // the initial value of v, nil for 0
	bound  loopBound     // v stays below it (or at most at it, if incl)
	incl   bool          // the condition is v <= bound
	ends   []ast.Expr    // the expressions init and bound are made of
	guards []loopGuard   // what reaching the containers needs, in order of evaluation
	access []*loopAccess // in source order

	// For the check.
	fr   *fileRewriter
	sets map[types.Object]bool // variables the body assigns
	seen map[string]bool       // guards, by text
}

// A loopBound is the bound of a counted loop: the expression x, or
// len(x) if ofLen, or the constant n if x is nil.
type loopBound struct {
	x     ast.Expr
	ofLen bool
	n     int64
}

// A loopGuard is a condition that reaching a container needs: the
// pointer x is not nil, or, if index is set, index is within the slice
// or array x.
type loopGuard struct {
	x, index ast.Expr
}

// A loopAccess is an index expression x[e] of the body.
type loopAccess struct {
	ix    *ast.IndexExpr
	write bool
	// The index is v op off, or off op v if offFirst; off is nil for v
	// alone.
	off      ast.Expr
	op       token.Token
	offFirst bool
}

// hoistable returns what hoisting the hooks of loop needs to know, or
// nil if loop is not a counted loop whose accesses can all be hoisted: a
// three-clause loop, or a range over an int or a slice's or an array's
// indexes. It must be called only for loops that loop versioning accepts
// (computesOnly), whose checks it does not repeat.
func (fr *fileRewriter) hoistable(loop ast.Stmt) *hoistable {
	var pos token.Pos
	var body *ast.BlockStmt
	switch a := loop.(type) {
	case *ast.ForStmt:
		pos, body = a.Pos(), a.Body
	case *ast.RangeStmt:
		pos, body = a.Pos(), a.Body
	default:
		return nil
	}
	if !fr.universal(pos, "len") || !fr.universal(pos, "uint") || !fr.universal(pos, "nil") {
		return nil // the condition's builtins are shadowed
	}
	h := &hoistable{fr: fr, sets: assignedIn(fr.info, body), seen: map[string]bool{}}
	ok := false
	switch a := loop.(type) {
	case *ast.ForStmt:
		var bound ast.Expr
		if h.init, bound = h.forClause(a); bound != nil {
			h.bound, h.ends, ok = loopBound{x: bound}, []ast.Expr{h.init, bound}, true
		}
	case *ast.RangeStmt:
		h.bound, h.ends, ok = h.rangeCount(a)
	}
	if !ok {
		return nil
	}
	for _, st := range body.List {
		if !h.stmt(st, false) {
			return nil
		}
	}
	if len(h.access) == 0 || len(h.access) > maxHoisted {
		return nil
	}
	return h
}

// loopVar sets the loop variable to the one id defines, if it is a local
// int of this goroutine that the body does not assign.
func (h *hoistable) loopVar(id ast.Expr) bool {
	x, ok := id.(*ast.Ident)
	if !ok {
		return false
	}
	h.v, ok = h.fr.info.Defs[x].(*types.Var)
	return ok && types.Identical(h.v.Type(), types.Typ[types.Int]) && h.fr.vars.Unaliased(h.v) && !h.sets[h.v]
}

// forClause returns the initial value and the bound of the loop
// for v := init; v < bound; v++ (or v <= bound, or v += 1), whose
// operands must be loop-invariant, or nils.
func (h *hoistable) forClause(a *ast.ForStmt) (init, bound ast.Expr) {
	in, ok := a.Init.(*ast.AssignStmt)
	if !ok || in.Tok != token.DEFINE || len(in.Lhs) != 1 || len(in.Rhs) != 1 || !h.loopVar(in.Lhs[0]) {
		return nil, nil
	}
	cond, ok := a.Cond.(*ast.BinaryExpr)
	if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ) || !h.isV(cond.X) {
		return nil, nil
	}
	h.incl = cond.Op == token.LEQ
	switch p := a.Post.(type) {
	case *ast.IncDecStmt:
		ok = p.Tok == token.INC && h.isV(p.X)
	case *ast.AssignStmt:
		ok = p.Tok == token.ADD_ASSIGN && len(p.Lhs) == 1 && h.isV(p.Lhs[0]) && isConstOne(h.fr.info, p.Rhs[0])
	default:
		ok = false
	}
	if !ok || !h.inv(in.Rhs[0]) || !h.inv(cond.Y) {
		return nil, nil
	}
	return in.Rhs[0], cond.Y
}

// rangeCount returns the bound n of the loop for v := range x, which
// runs v from 0 to n-1, and the expressions n is made of: x for an int,
// len(x) for a slice or an array (with no value variable, whose reads
// would be accesses too). x must be loop-invariant, since it is evaluated
// once but the condition evaluates it again, unless x is an array whose
// length is a constant: then x is not evaluated at all (the Go spec's
// exception for a range with one variable), and the bound is the length,
// so that for j := range it.vals, with it a pointer, counts too. It
// returns false for other loops.
func (h *hoistable) rangeCount(a *ast.RangeStmt) (loopBound, []ast.Expr, bool) {
	if a.Tok != token.DEFINE || a.Key == nil || a.Value != nil || !h.loopVar(a.Key) {
		return loopBound{}, nil, false
	}
	t := under(h.fr.typeOf(a.X))
	if arr, ok := t.(*types.Array); ok && constLen(a.X) {
		return loopBound{n: arr.Len()}, nil, true
	}
	if !h.inv(a.X) {
		return loopBound{}, nil, false
	}
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsInteger != 0 {
			return loopBound{x: a.X}, []ast.Expr{a.X}, true
		}
	case *types.Slice, *types.Array:
		return loopBound{x: a.X, ofLen: true}, []ast.Expr{a.X}, true
	}
	return loopBound{}, nil, false // a string's indexes step by runes; maps, pointers to arrays
}

// constLen reports whether len(x), for x of array type, is a constant:
// whether x has no function calls and no receives (the spec allows
// calls whose value is constant, and conversions; this is stricter).
func constLen(x ast.Expr) bool {
	ok := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// universal reports whether name means the predeclared object at pos.
func (fr *fileRewriter) universal(pos token.Pos, name string) bool {
	scope := fr.pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent(name, pos)
	return obj != nil && obj == types.Universe.Lookup(name)
}

// assignedIn returns the variables that body (a block or a whole loop)
// declares or assigns.
func assignedIn(info *types.Info, body ast.Node) map[types.Object]bool {
	sets := make(map[types.Object]bool)
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := info.ObjectOf(id); obj != nil {
				sets[obj] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				mark(l)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.ValueSpec:
			for _, id := range n.Names {
				mark(id)
			}
		case *ast.RangeStmt:
			if n.Key != nil {
				mark(n.Key)
			}
			if n.Value != nil {
				mark(n.Value)
			}
		}
		return true
	})
	return sets
}

func isConstOne(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.String() == "1"
}

// isV reports whether e is the loop variable.
func (h *hoistable) isV(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && h.fr.info.Uses[id] == h.v
}

// plainLocal reports whether v is a local variable that only the
// statements naming it reach (analysis.Variables.Unaliased): its
// accesses get no hook, and only assignments to it change it.
func (h *hoistable) plainLocal(v *types.Var) bool {
	return h.fr.vars.Unaliased(v)
}

// stmt checks a statement of the body; cond means that it may not run in
// every iteration.
func (h *hoistable) stmt(s ast.Stmt, cond bool) bool {
	fr := h.fr
	switch s := s.(type) {
	case *ast.EmptyStmt:
		return true
	case *ast.BlockStmt:
		for _, t := range s.List {
			if !h.stmt(t, cond) {
				return false
			}
		}
		return true
	case *ast.IfStmt:
		if s.Init != nil && !h.stmt(s.Init, cond) || !h.expr(s.Cond, cond) {
			return false
		}
		if !h.stmt(s.Body, true) {
			return false
		}
		return s.Else == nil || h.stmt(s.Else, true)
	case *ast.IncDecStmt:
		return h.target(s.X, cond)
	case *ast.AssignStmt:
		switch s.Tok {
		case token.DEFINE:
			for _, l := range s.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					return false
				}
				if v, ok := fr.info.ObjectOf(id).(*types.Var); ok && !h.plainLocal(v) {
					return false
				}
			}
		case token.QUO_ASSIGN, token.REM_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN:
			if !h.safeOp(s.Tok, s.Lhs[0], s.Rhs[0]) || !h.target(s.Lhs[0], cond) {
				return false
			}
		default:
			for _, l := range s.Lhs {
				if !h.target(l, cond) {
					return false
				}
			}
		}
		if len(s.Lhs) != len(s.Rhs) {
			return false // v, ok = m[k] and the like
		}
		for _, r := range s.Rhs {
			if !h.expr(r, cond) {
				return false
			}
		}
		return true
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return false
		}
		switch g.Tok {
		case token.CONST:
			return true
		case token.VAR:
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, id := range vs.Names {
					if v, ok := fr.info.Defs[id].(*types.Var); ok && !h.plainLocal(v) {
						return false
					}
				}
				if len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
					return false
				}
				for _, e := range vs.Values {
					if !h.expr(e, cond) {
						return false
					}
				}
			}
			return true
		}
	}
	return false
}

// target checks the target of an assignment or ++: a local of this
// goroutine, the blank identifier, or an element the loop may hoist.
func (h *hoistable) target(e ast.Expr, cond bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "_" {
			return true
		}
		v, ok := h.fr.info.Uses[e].(*types.Var)
		return ok && v != h.v && h.plainLocal(v)
	case *ast.IndexExpr:
		return !cond && h.index(e, true)
	}
	return false
}

// safeOp reports whether the operation x op y cannot panic: a division of
// floating-point or complex numbers, or a division, remainder or shift by
// a safe constant (or a shift by an unsigned count).
func (h *hoistable) safeOp(op token.Token, x, y ast.Expr) bool {
	switch op {
	case token.QUO, token.QUO_ASSIGN:
		if b, ok := under(h.fr.typeOf(x)).(*types.Basic); ok && b.Info()&(types.IsFloat|types.IsComplex) != 0 {
			return true
		}
	case token.SHL, token.SHR, token.SHL_ASSIGN, token.SHR_ASSIGN:
		if b, ok := under(h.fr.typeOf(y)).(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 {
			return true
		}
	case token.REM, token.REM_ASSIGN:
	default:
		return true
	}
	return h.fr.safeDivisorOrShift(y)
}

// expr checks an expression of the body whose value is used.
func (h *hoistable) expr(e ast.Expr, cond bool) bool {
	fr := h.fr
	if tv, ok := fr.info.Types[e]; ok && tv.Value != nil {
		return true
	}
	switch e := e.(type) {
	case *ast.Ident:
		switch obj := fr.info.Uses[e].(type) {
		case *types.Var:
			return h.plainLocal(obj)
		case *types.Nil:
			return true
		}
	case *ast.ParenExpr:
		return h.expr(e.X, cond)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB, token.ADD, token.XOR, token.NOT:
			return h.expr(e.X, cond)
		}
	case *ast.BinaryExpr:
		if !h.safeOp(e.Op, e.X, e.Y) || !h.comparable(e) || !h.expr(e.X, cond) {
			return false
		}
		return h.expr(e.Y, cond || e.Op == token.LAND || e.Op == token.LOR)
	case *ast.SelectorExpr:
		// A field of a local struct value.
		sel, ok := fr.info.Selections[e]
		return ok && sel.Kind() == types.FieldVal && !sel.Indirect() && h.localPlace(e.X)
	case *ast.CallExpr:
		return h.call(e, func(a ast.Expr) bool { return h.expr(a, cond) })
	case *ast.IndexExpr:
		if h.fr.tableLookup(e) {
			return h.expr(e.Index, cond)
		}
		return !cond && h.index(e, false)
	}
	return false
}

// comparable reports whether e, if it is a comparison, cannot panic:
// comparing interfaces, or structs or arrays that hold them, panics if
// the dynamic types are not comparable. Basic values and comparisons with
// nil are safe.
func (h *hoistable) comparable(e *ast.BinaryExpr) bool {
	if e.Op != token.EQL && e.Op != token.NEQ {
		return true
	}
	for _, x := range []ast.Expr{e.X, e.Y} {
		if tv, ok := h.fr.info.Types[x]; ok && tv.IsNil() {
			return true
		}
	}
	_, bx := under(h.fr.typeOf(e.X)).(*types.Basic)
	_, by := under(h.fr.typeOf(e.Y)).(*types.Basic)
	return bx && by
}

// localPlace reports whether e is a local of this goroutine or a field of
// one, not through a pointer.
func (h *hoistable) localPlace(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return h.localPlace(e.X)
	case *ast.Ident:
		v, ok := h.fr.info.Uses[e].(*types.Var)
		return ok && h.plainLocal(v)
	case *ast.SelectorExpr:
		sel, ok := h.fr.info.Selections[e]
		return ok && sel.Kind() == types.FieldVal && !sel.Indirect() && h.localPlace(e.X)
	}
	return false
}

// call checks a call in the body or in an invariant: a conversion between
// basic types or a builtin that computes, with operands that sub accepts.
func (h *hoistable) call(c *ast.CallExpr, sub func(ast.Expr) bool) bool {
	fr := h.fr
	if c.Ellipsis.IsValid() {
		return false
	}
	conv, builtin := fr.callee(c)
	switch {
	case conv != nil:
		if len(c.Args) != 1 {
			return false
		}
		_, to := under(conv).(*types.Basic)
		_, from := under(fr.typeOf(c.Args[0])).(*types.Basic)
		if !to || !from {
			return false
		}
	case builtin == "len" || builtin == "cap":
		switch under(fr.typeOf(c.Args[0])).(type) {
		case *types.Slice, *types.Array, *types.Basic:
		default:
			return false
		}
	case builtin == "min" || builtin == "max" || builtin == "real" || builtin == "imag" || builtin == "complex":
	default:
		return false
	}
	for _, a := range c.Args {
		if !sub(a) {
			return false
		}
	}
	return true
}

// inv reports whether e is loop-invariant and can be computed again
// without effects or panics: constants and locals of this goroutine that
// the body does not assign, combined by operators that cannot panic and
// pure builtins.
func (h *hoistable) inv(e ast.Expr) bool {
	fr := h.fr
	if tv, ok := fr.info.Types[e]; ok && tv.Value != nil {
		return true
	}
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := fr.info.Uses[e].(*types.Var)
		return ok && v != h.v && h.plainLocal(v) && !h.sets[v]
	case *ast.ParenExpr:
		return h.inv(e.X)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB, token.ADD, token.XOR:
			return h.inv(e.X)
		}
	case *ast.BinaryExpr:
		return h.safeOp(e.Op, e.X, e.Y) && h.inv(e.X) && h.inv(e.Y)
	case *ast.SelectorExpr:
		sel, ok := fr.info.Selections[e]
		return ok && sel.Kind() == types.FieldVal && !sel.Indirect() && h.inv(e.X)
	case *ast.CallExpr:
		return h.call(e, h.inv)
	}
	return false
}

// index checks the access x[e] of the body, written or read, and records
// it: e must be v, v+inv, inv+v or v-inv, and x a container the loop
// does not change.
func (h *hoistable) index(e *ast.IndexExpr, write bool) bool {
	fr := h.fr
	xt := fr.typeOf(e.X)
	if tv, ok := fr.info.Types[e.Index]; !ok || tv.IsType() || xt == nil || hasTypeParam(xt) {
		return false
	}
	switch t := xt.Underlying().(type) {
	case *types.Slice, *types.Array:
	case *types.Basic:
		if t.Info()&types.IsString == 0 {
			return false
		}
	default:
		return false
	}
	if write {
		// An element written is not a container's header or a pointer
		// to one (see above).
		if _, basic := under(fr.typeOf(e)).(*types.Basic); !basic {
			return false
		}
	}
	acc := &loopAccess{ix: e, write: write}
	switch x := ast.Unparen(e.Index).(type) {
	case *ast.Ident:
		if !h.isV(x) {
			return false
		}
	case *ast.BinaryExpr:
		acc.op = x.Op
		switch {
		case (x.Op == token.ADD || x.Op == token.SUB) && h.isV(x.X) && h.inv(x.Y):
			acc.off = x.Y
		case x.Op == token.ADD && h.isV(x.Y) && h.inv(x.X):
			acc.off, acc.offFirst = x.X, true
		default:
			return false
		}
	default:
		return false
	}
	if !h.container(e.X) {
		return false
	}
	h.access = append(h.access, acc)
	return true
}

// container checks the container x of an access: a variable the body
// does not assign, or a field or an element (at an invariant index) of
// one, directly or through pointers. The condition checks each pointer
// for nil and each index against its slice or array, in the order of
// evaluation, so that it evaluates len(x) without panicking.
func (h *hoistable) container(x ast.Expr) bool {
	fr := h.fr
	switch x := x.(type) {
	case *ast.IndexExpr:
		xt := fr.typeOf(x.X)
		switch under(xt).(type) {
		case *types.Slice, *types.Array:
		default:
			return false
		}
		if hasTypeParam(xt) || !h.inv(x.Index) || !h.container(x.X) {
			return false
		}
		h.guard("index "+types.ExprString(x), loopGuard{x: x.X, index: x.Index})
		return true
	case *ast.ParenExpr:
		return h.container(x.X)
	case *ast.Ident:
		v, ok := fr.info.Uses[x].(*types.Var)
		return ok && v != h.v && !v.IsField() && !h.sets[v]
	case *ast.SelectorExpr:
		sel, ok := fr.info.Selections[x]
		if !ok {
			_, ok := fr.info.Uses[x.Sel].(*types.Var) // a package's variable
			return ok
		}
		if sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
			return false
		}
		if !h.container(x.X) {
			return false
		}
		if _, ptr := underPointer(fr.typeOf(x.X)); ptr {
			h.guard("nil "+types.ExprString(x.X), loopGuard{x: x.X})
		}
		return true
	}
	return false
}

// guard adds g to the loop's condition, once for each key.
func (h *hoistable) guard(key string, g loopGuard) {
	if !h.seen[key] {
		h.seen[key] = true
		h.guards = append(h.guards, g)
	}
}

// Hoisting out of an enclosing loop (see hoist_emit.go) records the
// ranges that the enclosing loop does not change once. The enclosing
// loop must leave the range alone: it assigns none of the variables the
// range is computed from, and writes only locals of this goroutine and
// elements of basic type (no copy, clear or append either), which cannot
// be a container's header or a pointer leading to it.

// An outerShape is what the syntax tells of a loop that only computes,
// around loops whose hooks are hoisted.
type outerShape struct {
	sets map[types.Object]bool // variables its body assigns
	safe bool                  // its body writes only locals and elements of basic type
}

// outerShape returns what the syntax tells of loop, or nil if it is not
// a for or range loop.
func (fr *fileRewriter) outerShape(loop ast.Node) *outerShape {
	switch loop.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	// The loop's own clauses count: its variables change from one
	// iteration to the next.
	return &outerShape{
		sets: assignedIn(fr.info, loop),
		safe: fr.universal(loop.Pos(), "bool") && fr.writesOnlyData(loop),
	}
}

// invariantIn reports whether the enclosing loop o assigns none of the
// variables in e but h's own.
func (h *hoistable) invariantIn(o *outerShape, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if id, isId := n.(*ast.Ident); isId {
			if obj := h.fr.info.Uses[id]; obj != nil && obj != h.v && o.sets[obj] {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// writesOnlyData reports whether loop writes only locals of this
// goroutine and elements of basic type, and calls no builtin that writes.
func (fr *fileRewriter) writesOnlyData(loop ast.Node) bool {
	target := func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			if e.Name == "_" {
				return true
			}
			v, ok := fr.info.Uses[e].(*types.Var)
			return ok && fr.vars.Unaliased(v)
		case *ast.IndexExpr:
			_, basic := under(fr.typeOf(e)).(*types.Basic)
			return basic
		}
		return false
	}
	ok := true
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					ok = ok && target(l)
				}
			}
		case *ast.IncDecStmt:
			ok = ok && target(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				ok = ok && (n.Key == nil || target(n.Key)) && (n.Value == nil || target(n.Value))
			}
		case *ast.UnaryExpr:
			ok = ok && n.Op != token.AND
		case *ast.CallExpr:
			if conv, builtin := fr.callee(n); conv == nil {
				switch builtin {
				case "len", "cap", "min", "max", "real", "imag", "complex":
				default:
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// callee tells what the call c calls: the type a conversion converts to,
// or the name of a builtin function; neither for other calls.
func (fr *fileRewriter) callee(c *ast.CallExpr) (conv types.Type, builtin string) {
	fun := ast.Unparen(c.Fun)
	tv, ok := fr.info.Types[fun]
	switch {
	case !ok:
		return nil, ""
	case tv.IsType():
		return tv.Type, ""
	case tv.IsBuiltin():
		if id, ok := fun.(*ast.Ident); ok {
			return nil, id.Name
		}
	}
	return nil, ""
}
