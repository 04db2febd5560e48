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
// Which loops qualify, so that the range hooks record exactly the
// accesses the loop makes, is decided in hoist_eligible.go.
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

// A countedLoop is a loop whose access hooks are hoisted: its shape and
// copies of what the third copy needs, taken before the loop is
// rewritten.
type countedLoop struct {
	shape  *hoistable
	loop   dst.Stmt // the original loop, for positions
	plain  dst.Stmt // a copy of it without hooks
	init   dst.Expr // copies of the initial value and of the bound
	bound  dst.Expr
	guards []dst.Expr
	access []*hoistedAccess
}

// A hoistedAccess is an access of the body with copies of its container
// and of its index's offset.
type hoistedAccess struct {
	*loopAccess
	base dst.Expr // a copy of x, for len(x)
	inv  dst.Expr // a copy of off, or nil
}

// countedLoop returns what hoisting the hooks of the loop s needs, or
// nil if s does not qualify (see hoistable). It must be called before s
// is rewritten.
func (fr *fileRewriter) countedLoop(s dst.Stmt) *countedLoop {
	a, ok := fr.dec.Ast.Nodes[s].(ast.Stmt)
	if !ok {
		return nil
	}
	shape := fr.hoistable(a)
	if shape == nil {
		return nil
	}
	h := &countedLoop{shape: shape, loop: s, init: &dst.BasicLit{Kind: token.INT, Value: "0"}}
	if shape.init != nil {
		h.init = fr.copyExpr(shape.init)
	}
	switch b := shape.bound; {
	case b.x == nil:
		h.bound = &dst.BasicLit{Kind: token.INT, Value: strconv.FormatInt(b.n, 10)}
	case b.ofLen:
		h.bound = builtinCall("len", fr.copyExpr(b.x))
	default:
		h.bound = fr.copyExpr(b.x)
	}
	for _, g := range shape.guards {
		if g.index == nil {
			// x != nil
			h.guards = append(h.guards, binOp(fr.copyExpr(g.x), token.NEQ, ident("nil")))
			continue
		}
		// uint(i) < uint(len(x))
		h.guards = append(h.guards, binOp(builtinCall("uint", fr.copyExpr(g.index)), token.LSS,
			builtinCall("uint", builtinCall("len", fr.copyExpr(g.x)))))
	}
	for _, acc := range shape.access {
		ha := &hoistedAccess{loopAccess: acc, base: fr.copyExpr(acc.ix.X)}
		if acc.off != nil {
			ha.inv = fr.copyExpr(acc.off)
		}
		h.access = append(h.access, ha)
	}
	h.plain = dst.Clone(s).(dst.Stmt)
	fr.copyOrigins(s, h.plain)
	return h
}

// hoisted returns the copy of the loop h whose hooks run before it, if
// its condition holds, and els otherwise.
func (fr *fileRewriter) hoisted(h *countedLoop, els dst.Stmt) dst.Stmt {
	lo, hi := fr.temp("lo"), fr.temp("hi")
	bound := dst.Clone(h.bound).(dst.Expr)
	if h.shape.incl {
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
			if o != nil && h.shape.invariantIn(o.outerShape, acc.ix) {
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
func (fr *fileRewriter) rangeHooks(acc *hoistedAccess, lo, hi string) []dst.Stmt {
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
		h := pick(acc.write, hookSliceW, hookSliceR)
		elems := &dst.SliceExpr{X: x, Low: acc.index(lo), High: acc.index(hi)}
		out = append(out, exprStmt(fr.rtCall(h, elems, siteLit(fr.newSite(ix, global)))))
	}
	if len(out) == 0 {
		// No element hook: the container's reads still need theirs.
		dst.Inspect(x, func(n dst.Node) bool {
			if c, ok := n.(*dst.CallExpr); ok {
				if _, rt := fr.rtCallee(c); rt {
					out = append(out, exprStmt(c))
					return false
				}
			}
			return true
		})
	}
	for _, s := range out {
		fr.from(s, fr.dec.Dst.Nodes[ix])
	}
	return out
}

// hoistValue returns a new expression for the container x of a hoisted
// access, with the hook of its read as the rewrite gives it.
func (fr *fileRewriter) hoistValue(x ast.Expr) dst.Expr {
	return fr.hookAt(x, fr.hoistPlace(x), false)
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
func (acc *hoistedAccess) index(at string) dst.Expr {
	if acc.inv == nil {
		return ident(at)
	}
	inv := dst.Clone(acc.inv).(dst.Expr)
	if acc.offFirst {
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
// hoist_eligible.go says which enclosing loops leave the range alone.

// An outerLoop is a loop that only computes, while its instrumented copy
// is rewritten.
type outerLoop struct {
	*outerShape
	flags []string // the done flags of the loops in it
}

// pushOuter notes that the loop s, which only computes, is being
// rewritten, for the loops in it.
func (fr *fileRewriter) pushOuter(s dst.Stmt) *outerLoop {
	shape := fr.outerShape(fr.dec.Ast.Nodes[s])
	if shape == nil {
		return nil
	}
	o := &outerLoop{outerShape: shape}
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
	for _, e := range h.shape.ends {
		if !h.shape.invariantIn(o.outerShape, e) {
			return nil
		}
	}
	return o
}

// copyExpr returns a copy of the dst expression of a, made before a is
// rewritten, without the decorations around it.
func (fr *fileRewriter) copyExpr(a ast.Expr) dst.Expr {
	c := dst.Clone(fr.dec.Dst.Nodes[a]).(dst.Expr)
	*c.Decorations() = dst.NodeDecs{}
	return c
}
