package instrument

import (
	"go/token"
	"go/types"

	"github.com/dave/dst"
)

// The runtime's R and W take the address of a Ctx that the calling
// function declares, in which the runtime caches the state of the
// goroutine running the function: looked up once per call instead of once
// per access (runtime.Ctx). Each function of the source that reads or
// writes memory declares its own, as its first statement:
//
//	func f() {
//		var racegenctx racegenrt.Ctx
//		... *racegenrt.R(&x, site, &racegenctx) ...
//	}
//
// A function literal declares its own too, shadowing its enclosing
// function's: a closure may run on another goroutine. Closures that the
// rewriter itself makes use the Ctx of the source function they are part
// of, which the runtime trusts only on the stack of the goroutine that
// filled it. An access outside any function passes nil.

// accessHookCall returns the call h(p, site) of the read or write hook h
// that accessHook chose, passing the function's Ctx to the hooks that
// take one. t is the type of *p: R and W record a value of one component
// by its first word (oneComponent), which the site's siteWord bit tells
// them.
func (fr *fileRewriter) accessHookCall(h *hook, p dst.Expr, t types.Type, site uint64) *dst.CallExpr {
	if (h == hookR || h == hookW) && oneComponent(t) {
		site |= siteWord
	}
	if h.takesCtx() {
		return fr.rtCall(h, p, siteLit(site), fr.ctxArg())
	}
	return fr.rtCall(h, p, siteLit(site))
}

// ctxArg returns the argument that an R or W of the function being
// rewritten passes: &ctx, or nil at package level.
func (fr *fileRewriter) ctxArg() dst.Expr {
	if fr.fn == nil {
		return ident("nil")
	}
	if fr.ctxName == "" {
		fr.ctxName = fr.freshName(CtxName)
	}
	return addrOf(ident(fr.ctxName))
}

// syncCtxArg returns the Ctx argument of a lock's half or a channel
// operation's hook: in dynamic builds the function's, which the hook
// fills for the accesses that follow or finds filled by those before,
// where it would look the goroutine up for every operation; in static
// builds, whose hooks take no Ctx and whose synchronization only ticks a
// clock, nil.
func (fr *fileRewriter) syncCtxArg() dst.Expr {
	if fr.cfg.static() {
		return ident("nil")
	}
	return fr.ctxArg()
}

// declareCtxs declares the Ctx of every function of the source whose
// body names it, itself or in a closure the rewriter made; functions that
// name none declare none, which the compiler would reject as unused.
func (fr *fileRewriter) declareCtxs() {
	if fr.ctxName == "" {
		return
	}
	for _, d := range fr.file.Decls {
		if fd, ok := d.(*dst.FuncDecl); ok && fd.Body != nil {
			fr.declareCtx(fd.Body)
			continue
		}
		// Function literals in package-level initializers.
		dst.Inspect(d, func(n dst.Node) bool {
			if fl, ok := n.(*dst.FuncLit); ok && fr.sourceFunc(fl) {
				fr.declareCtx(fl.Body)
				return false
			}
			return true
		})
	}
}

// declareCtx declares the Ctx of the function whose body is body, if the
// body names it outside the function literals of the source, and does
// the same for those.
//
// A function that names none but calls a function in a loop declares one
// too, unused: racegen's compiler gives the functions it inlines there
// the caller's Ctx (cmd/racegen/inlinectx.go), which would otherwise be
// a Ctx of their own, zeroed at every iteration, so that each iteration
// looked the goroutine up again. The compiler drops a Ctx that nothing
// inlined uses.
func (fr *fileRewriter) declareCtx(body *dst.BlockStmt) {
	used, loopCall := false, false
	var visit func(n dst.Node, inLoop bool) bool
	visit = func(n dst.Node, inLoop bool) bool {
		switch n := n.(type) {
		case *dst.FuncLit:
			if fr.sourceFunc(n) {
				fr.declareCtx(n.Body)
				return false
			}
		case *dst.Ident:
			if n.Name == fr.ctxName && n.Path == "" {
				used = true
			}
		case *dst.CallExpr:
			if _, ok := fr.dec.Ast.Nodes[n]; ok && inLoop {
				loopCall = true // a call of the source, not a hook
			}
		case *dst.ForStmt, *dst.RangeStmt:
			if !inLoop {
				dst.Inspect(n, func(m dst.Node) bool { return m == n || visit(m, true) })
				return false
			}
		}
		return true
	}
	dst.Inspect(body, func(n dst.Node) bool { return visit(n, false) })
	if !used && !loopCall {
		return
	}
	decl := &dst.DeclStmt{Decl: &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{&dst.ValueSpec{
		Names: []*dst.Ident{ident(fr.ctxName)},
		Type:  fr.rtType(CtxType),
	}}}}
	list := []dst.Stmt{decl}
	if !used {
		list = append(list, &dst.AssignStmt{Lhs: []dst.Expr{ident("_")}, Tok: token.ASSIGN, Rhs: []dst.Expr{ident(fr.ctxName)}})
	}
	body.List = append(list, body.List...)
}

// sourceFunc reports whether the function literal fl comes from the
// source, rather than from the rewriter.
func (fr *fileRewriter) sourceFunc(fl *dst.FuncLit) bool {
	_, ok := fr.dec.Ast.Nodes[fl]
	return ok
}
