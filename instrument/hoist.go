package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
)

// Hoisting the hooks of counted loops. Loop versioning (version.go) makes
// a loop free while the detector is idle, but at a full sampling rate
// every element a counted loop (a three-clause loop stepping an int by
// one, or a range over an int or over a slice's or an array's indexes)
// touches still costs a hook, and in an inner loop such as
//
//	for j := j0; j < min(j0+bs, n); j++ {
//		c.A[i*n+j] += aik * b.A[k*n+j]
//	}
//
// the hooks cost many times the loop's own work. When every access of
// the body is to the element v+inv (or inv+v, v-inv, v) of a container
// that does not change in the loop, the elements a run of the loop
// touches are known before it starts: a contiguous range of each
// container, given by the loop's first and last values of v. So the loop
// gets a third copy:
//
//	if racegenrt.Idle() {
//		plain loop
//	} else if lo, hi := j0, min(j0+bs, n); lo < hi && c != nil && b != nil && <each range within its container> {
//		racegenrt.SliceR((*racegenrt.R(&b.A, s1))[k*n+lo:k*n+hi], s2)
//		racegenrt.SliceW((*racegenrt.R(&c.A, s3))[i*n+lo:i*n+hi], s4)
//		plain loop
//	} else {
//		instrumented loop
//	}
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
//     basic values, pure builtins).
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
// The condition and the range bounds are computed without overflow: the
// first index s is computed as the body computes it (wrapping as it
// does), and the loop stays within x if uint(s) <= uint(len(x)) and
// uint(hi-lo) <= uint(len(x)-s), which, with lo < hi, are exact. For
// v <= bound, hi is bound+1, which wraps for the largest int and then
// fails lo < hi, leaving such a loop to the instrumented copy.
//
// A program whose containers are reached through shared memory that
// another goroutine writes during the loop (say c.A, while the loop runs)
// races on that memory, and the hook of its read reports it; the ranges
// are then those of the values the condition read.

// maxHoisted bounds the accesses of a hoisted loop, which each add to
// its condition.
const maxHoisted = 16

// A countedLoop is a loop whose access hooks can be hoisted: what the
// third copy needs, taken before the loop is rewritten.
type countedLoop struct {
	loop   dst.Stmt   // the original loop, for positions
	ends   []ast.Expr // the expressions init and bound are made of
	plain  dst.Stmt   // a copy of it without hooks
	v      *types.Var
	init   dst.Expr // copies of the initial value and of the bound
	bound  dst.Expr
	incl   bool          // the condition is v <= bound
	guards []dst.Expr    // what reaching the containers needs: pointers not nil, indexes in range
	access []*loopAccess // in source order

	// For the analysis.
	fr   *fileRewriter
	sets map[types.Object]bool // variables the body assigns
	seen map[string]bool       // guards, by text
}

// A loopAccess is an index expression x[e] of the body.
type loopAccess struct {
	ix    *ast.IndexExpr
	write bool
	base  dst.Expr // a copy of x, for len(x)
	// The index is v op inv, or inv op v if invFirst; inv is nil for v
	// alone.
	inv      dst.Expr
	op       token.Token
	invFirst bool
}

// countedLoop returns what hoisting the hooks of the loop s needs, or
// nil if s is not a counted loop whose accesses can all be hoisted: a
// three-clause loop, or a range over an int or a slice's or an array's
// indexes. It
// must be called before s is rewritten, and only for loops that loop
// versioning accepts (computesOnly), whose checks it does not repeat.
func (fr *fileRewriter) countedLoop(s dst.Stmt) *countedLoop {
	var pos token.Pos
	var body *ast.BlockStmt
	switch a := fr.dec.Ast.Nodes[s].(type) {
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
	h := &countedLoop{loop: s, fr: fr, sets: assignedIn(fr.info, body), seen: map[string]bool{}}
	var init ast.Expr
	switch a := fr.dec.Ast.Nodes[s].(type) {
	case *ast.ForStmt:
		var bound ast.Expr
		if init, bound = h.forClause(a); bound != nil {
			h.bound = fr.copyExpr(bound)
			h.ends = []ast.Expr{init, bound}
		}
	case *ast.RangeStmt:
		h.bound, h.ends = h.rangeCount(a)
	}
	if h.bound == nil {
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
	h.init = &dst.BasicLit{Kind: token.INT, Value: "0"}
	if init != nil {
		h.init = fr.copyExpr(init)
	}
	for _, acc := range h.access {
		acc.base = fr.copyExpr(acc.ix.X)
	}
	h.plain = dst.Clone(s).(dst.Stmt)
	fr.copyOrigins(s, h.plain)
	return h
}

// loopVar sets the loop variable to the one id defines, if it is a local
// int of this goroutine that the body does not assign.
func (h *countedLoop) loopVar(id ast.Expr) bool {
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
func (h *countedLoop) forClause(a *ast.ForStmt) (init, bound ast.Expr) {
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
// returns nil for other loops.
func (h *countedLoop) rangeCount(a *ast.RangeStmt) (dst.Expr, []ast.Expr) {
	if a.Tok != token.DEFINE || a.Key == nil || a.Value != nil || !h.loopVar(a.Key) {
		return nil, nil
	}
	t := under(h.fr.typeOf(a.X))
	if arr, ok := t.(*types.Array); ok && constLen(a.X) {
		return &dst.BasicLit{Kind: token.INT, Value: strconv.FormatInt(arr.Len(), 10)}, nil
	}
	if !h.inv(a.X) {
		return nil, nil
	}
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsInteger != 0 {
			return h.fr.copyExpr(a.X), []ast.Expr{a.X}
		}
	case *types.Slice, *types.Array:
		return builtinCall("len", h.fr.copyExpr(a.X)), []ast.Expr{a.X}
	}
	return nil, nil // a string's indexes step by runes; maps, pointers to arrays
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

// copyExpr returns a copy of the dst expression of a, made before a is
// rewritten, without the decorations around it.
func (fr *fileRewriter) copyExpr(a ast.Expr) dst.Expr {
	c := dst.Clone(fr.dec.Dst.Nodes[a]).(dst.Expr)
	*c.Decorations() = dst.NodeDecs{}
	return c
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
func (h *countedLoop) isV(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && h.fr.info.Uses[id] == h.v
}

// plainLocal reports whether v is a local variable of this goroutine
// only, whose accesses get no hook.
func (h *countedLoop) plainLocal(v *types.Var) bool {
	return h.fr.vars.Unaliased(v)
}

// stmt checks a statement of the body; cond means that it may not run in
// every iteration.
func (h *countedLoop) stmt(s ast.Stmt, cond bool) bool {
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
func (h *countedLoop) target(e ast.Expr, cond bool) bool {
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
func (h *countedLoop) safeOp(op token.Token, x, y ast.Expr) bool {
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
func (h *countedLoop) expr(e ast.Expr, cond bool) bool {
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
		return !cond && h.index(e, false)
	}
	return false
}

// comparable reports whether e, if it is a comparison, cannot panic:
// comparing interfaces, or structs or arrays that hold them, panics if
// the dynamic types are not comparable. Basic values and comparisons with
// nil are safe.
func (h *countedLoop) comparable(e *ast.BinaryExpr) bool {
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
func (h *countedLoop) localPlace(e ast.Expr) bool {
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
func (h *countedLoop) call(c *ast.CallExpr, sub func(ast.Expr) bool) bool {
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
func (h *countedLoop) inv(e ast.Expr) bool {
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
func (h *countedLoop) index(e *ast.IndexExpr, write bool) bool {
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
			acc.inv = fr.copyExpr(x.Y)
		case x.Op == token.ADD && h.isV(x.Y) && h.inv(x.X):
			acc.inv, acc.invFirst = fr.copyExpr(x.X), true
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
func (h *countedLoop) container(x ast.Expr) bool {
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
		// uint(i) < uint(len(x))
		h.guard("index "+types.ExprString(x), binOp(builtinCall("uint", fr.copyExpr(x.Index)), token.LSS,
			builtinCall("uint", builtinCall("len", fr.copyExpr(x.X)))))
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
			h.guard("nil "+types.ExprString(x.X), binOp(fr.copyExpr(x.X), token.NEQ, ident("nil")))
		}
		return true
	}
	return false
}

// guard adds g to the loop's condition, once for each key.
func (h *countedLoop) guard(key string, g dst.Expr) {
	if !h.seen[key] {
		h.seen[key] = true
		h.guards = append(h.guards, g)
	}
}

// hoisted returns the copy of the loop h whose hooks run before it, if
// its condition holds, and els otherwise.
func (fr *fileRewriter) hoisted(h *countedLoop, els dst.Stmt) dst.Stmt {
	lo, hi := fr.temp("lo"), fr.temp("hi")
	bound := dst.Clone(h.bound).(dst.Expr)
	if h.incl {
		bound = &dst.BinaryExpr{X: bound, Op: token.ADD, Y: &dst.BasicLit{Kind: token.INT, Value: "1"}}
	}
	init := define([]string{lo, hi}, dst.Clone(h.init).(dst.Expr), bound)
	cond := binOp(ident(lo), token.LSS, ident(hi))
	for _, g := range h.guards {
		cond = binOp(cond, token.LAND, dst.Clone(g).(dst.Expr))
	}
	count := builtinCall("uint", binOp(ident(hi), token.SUB, ident(lo)))
	seen := make(map[string]bool)
	for _, acc := range h.access {
		key := types.ExprString(acc.ix)
		if seen[key] {
			continue
		}
		seen[key] = true
		n := builtinCall("len", dst.Clone(acc.base).(dst.Expr))
		s := acc.index(lo)
		// uint(s) <= uint(len(x)) && uint(hi-lo) <= uint(len(x)-s)
		cond = binOp(cond, token.LAND, binOp(builtinCall("uint", s), token.LEQ, builtinCall("uint", n)))
		cond = binOp(cond, token.LAND, binOp(dst.Clone(count).(dst.Expr), token.LEQ,
			builtinCall("uint", binOp(dst.Clone(n).(dst.Expr), token.SUB, acc.index(lo)))))
	}
	var hooks, once []dst.Stmt
	o := fr.onceIn(h)
	for _, write := range []bool{false, true} {
		for _, acc := range h.access {
			if acc.write != write {
				continue
			}
			if o != nil && h.invariantIn(o, acc.ix) {
				once = append(once, fr.rangeHooks(acc, lo, hi)...)
			} else {
				hooks = append(hooks, fr.rangeHooks(acc, lo, hi)...)
			}
		}
	}
	if len(once) > 0 {
		// if !done { done = true; hooks }
		done := fr.temp("done")
		o.flags = append(o.flags, done)
		set := &dst.AssignStmt{Lhs: []dst.Expr{ident(done)}, Tok: token.ASSIGN, Rhs: []dst.Expr{ident("true")}}
		fr.from(set, h.loop)
		first := &dst.IfStmt{Cond: &dst.UnaryExpr{Op: token.NOT, X: ident(done)}, Body: block(append([]dst.Stmt{set}, once...)...)}
		hooks = append([]dst.Stmt{fr.from(first, h.loop)}, hooks...)
	}
	body := block(append(hooks, h.plain)...)
	v := &dst.IfStmt{Init: init, Cond: cond, Body: body, Else: els}
	fr.from(init, h.loop)
	return fr.from(v, h.loop)
}

// rangeHooks returns the hooks of the accesses acc makes in the loop's
// run from lo to hi: the reads its container's evaluation makes, and a
// range hook for the elements, each with the site and line of acc.
func (fr *fileRewriter) rangeHooks(acc *loopAccess, lo, hi string) []dst.Stmt {
	ix := acc.ix
	var x dst.Expr
	if isArray(fr.typeOf(ix.X)) {
		x = fr.hoistPlace(ix.X)
	} else {
		x = fr.hoistValue(ix.X)
	}
	var out []dst.Stmt
	shared, global := fr.isShared(ix)
	switch {
	case !shared || fr.zeroSize(fr.typeOf(ix)):
	case fr.cfg.Local != nil && fr.cfg.Local(ix):
		fr.dropped++
	default:
		name := "SliceR"
		if acc.write {
			name = "SliceW"
		}
		elems := &dst.SliceExpr{X: x, Low: acc.index(lo), High: acc.index(hi)}
		out = append(out, exprStmt(fr.rtCall(name, elems, siteLit(fr.newSite(ix, global)))))
	}
	if len(out) == 0 {
		// No element hook: the container's reads still need theirs.
		dst.Inspect(x, func(n dst.Node) bool {
			if c, ok := n.(*dst.CallExpr); ok && fr.isRuntimeCall(c) {
				out = append(out, exprStmt(c))
				return false
			}
			return true
		})
	}
	for _, s := range out {
		fr.from(s, fr.dec.Dst.Nodes[ix])
	}
	return out
}

// isRuntimeCall reports whether c calls a function of the runtime.
func (fr *fileRewriter) isRuntimeCall(c *dst.CallExpr) bool {
	sel, ok := c.Fun.(*dst.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*dst.Ident)
	return ok && x.Name == fr.rtName && x.Path == ""
}

// hoistValue returns a new expression for the container x of a hoisted
// access, with the hook of its read as the rewrite gives it.
func (fr *fileRewriter) hoistValue(x ast.Expr) dst.Expr {
	return fr.hook(x, fr.hoistPlace(x), false)
}

// hoistPlace returns a new expression for x, a variable, a field or an
// element, whose own memory is not read but whose operands are, with
// their hooks.
func (fr *fileRewriter) hoistPlace(x ast.Expr) dst.Expr {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return fr.hoistPlace(x.X)
	case *ast.Ident:
		return ident(x.Name)
	case *ast.IndexExpr:
		var base dst.Expr
		if isArray(fr.typeOf(x.X)) {
			base = fr.hoistPlace(x.X)
		} else {
			base = fr.hoistValue(x.X)
		}
		return &dst.IndexExpr{X: base, Index: fr.copyExpr(x.Index)}
	case *ast.SelectorExpr:
		var base dst.Expr
		if _, ok := fr.info.Selections[x]; !ok {
			base = fr.copyExpr(x.X) // a package name
		} else if _, ptr := underPointer(fr.typeOf(x.X)); ptr {
			base = fr.hoistValue(x.X)
		} else {
			base = fr.hoistPlace(x.X)
		}
		return &dst.SelectorExpr{X: base, Sel: ident(x.Sel.Name)}
	}
	panic("hoistPlace: not a container")
}

// index returns the index of acc for v = at.
func (acc *loopAccess) index(at string) dst.Expr {
	if acc.inv == nil {
		return ident(at)
	}
	inv := dst.Clone(acc.inv).(dst.Expr)
	if acc.invFirst {
		return binOp(inv, acc.op, ident(at))
	}
	return binOp(ident(at), acc.op, inv)
}

func binOp(x dst.Expr, op token.Token, y dst.Expr) dst.Expr {
	return &dst.BinaryExpr{X: x, Op: op, Y: y}
}

func builtinCall(fun string, args ...dst.Expr) dst.Expr {
	return &dst.CallExpr{Fun: ident(fun), Args: args}
}

// Hoisting out of an enclosing loop. In matmul's block, the j loop's
// write of c's row i is the same range for every k of the enclosing k
// loop, and its hooks, hoisted before the j loop, still run once per k.
// Every run but the first records again what the first recorded: the
// same accesses, by the same goroutine, with no synchronization in
// between, since the enclosing loop only computes. Dropping such repeats
// cannot make a report (an access ordered after a repeat is ordered after
// the first too); at most it loses one, if the first's record is gone by
// then (a sampling period ended and the history was dropped). So a
// hoisted range that the enclosing loop does not change is recorded in
// the first run of the inner loop that takes the hoisted copy only:
//
//	{
//		var done bool
//		for k := ... {
//			...
//			} else if lo, hi := ...; ... {
//				if !done { done = true; ranges that do not depend on k }
//				ranges that do
//				plain j loop
//			} ...
//		}
//	}
//
// The enclosing loop must leave the range alone: it assigns none of the
// variables the range is computed from, and writes only locals of this
// goroutine and elements of basic type (no copy, clear or append either),
// which cannot be a container's header or a pointer leading to it.

// An outerLoop is a loop that only computes, while its instrumented copy
// is rewritten.
type outerLoop struct {
	sets  map[types.Object]bool // variables its body assigns
	safe  bool                  // its body writes only locals and elements of basic type
	flags []string              // the done flags of the loops in it
}

// pushOuter notes that the loop s, which only computes, is being
// rewritten, for the loops in it.
func (fr *fileRewriter) pushOuter(s dst.Stmt) *outerLoop {
	a := fr.dec.Ast.Nodes[s]
	switch a.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	// The loop's own clauses count: its variables change from one
	// iteration to the next.
	o := &outerLoop{
		sets: assignedIn(fr.info, a),
		safe: fr.universal(a.Pos(), "bool") && fr.writesOnlyData(a),
	}
	fr.outer = append(fr.outer, o)
	return o
}

// popOuter ends the rewriting of the loop o and returns the declarations
// of its flags, to put before it.
func (fr *fileRewriter) popOuter(o *outerLoop) []dst.Stmt {
	fr.outer = fr.outer[:len(fr.outer)-1]
	var decls []dst.Stmt
	for _, f := range o.flags {
		decls = append(decls, &dst.DeclStmt{Decl: &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{
			&dst.ValueSpec{Names: []*dst.Ident{ident(f)}, Type: ident("bool")},
		}}})
	}
	return decls
}

// onceIn returns the loop that encloses the hoisted loop h, if hoisted
// ranges it does not change may be recorded once in it.
func (fr *fileRewriter) onceIn(h *countedLoop) *outerLoop {
	if len(fr.outer) == 0 {
		return nil
	}
	o := fr.outer[len(fr.outer)-1]
	if !o.safe || !fr.universal(fr.dec.Ast.Nodes[h.loop].Pos(), "true") {
		return nil
	}
	for _, e := range h.ends {
		if !h.invariantIn(o, e) {
			return nil
		}
	}
	return o
}

// invariantIn reports whether the enclosing loop o assigns none of the
// variables in e but h's own.
func (h *countedLoop) invariantIn(o *outerLoop, e ast.Expr) bool {
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
