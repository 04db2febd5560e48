package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"
)

// goStmt rewrites a go statement so that the detector sees the new
// goroutine created after everything the parent did before the go
// statement, including the evaluation of the function and its arguments,
// which Go performs in the parent. A function literal stays the
// goroutine's function, so that its name in tracebacks (pkg.F.funcN) is
// the original one, and gets the prologue:
//
//	{
//		a := x
//		g := racegenrt.GoFork()
//		go func(a T) { racegenrt.GoStart(g); defer racegenrt.GoEnd(); ... }(a)
//	}
//
// Any other function is called by the go statement as written, with its
// function value and arguments evaluated before it:
//
//	{
//		fn, a := f, x
//		s := racegenrt.GoSpawn()
//		go fn(a)
//		racegenrt.GoSpawned(s)
//	}
//
// so that the goroutine's stack has no frame the program's does not
// (runtime/spawn.go). Function names, builtins, untyped constants and nil
// are left in place.
func (fr *fileRewriter) goStmt(s *dst.GoStmt) dst.Stmt {
	a, ok := fr.dec.Ast.Nodes[s].(*ast.GoStmt)
	if !ok {
		return s
	}
	// Classify the callee and arguments before rewriting them.
	funInline := fr.inlineCallee(a.Call.Fun)
	argInline := make([]bool, len(a.Call.Args))
	for i, arg := range a.Call.Args {
		tv := fr.info.Types[arg]
		argInline[i] = tv.Value != nil || tv.IsNil() || tv.IsType()
	}
	multi := len(a.Call.Args) == 1 && isTuple(fr.typeOf(a.Call.Args[0]))
	var sig *types.Signature
	if t := fr.typeOf(a.Call.Fun); t != nil {
		sig, _ = under(t).(*types.Signature)
	}

	saved := fr.ioDirect
	fr.ioDirect = a.Call
	n := fr.rvalue(s.Call)
	fr.ioDirect = saved
	call, ok := n.(*dst.CallExpr)
	if !ok {
		return s
	}
	var pre []dst.Stmt
	if _, wrapped := fr.dec.Ast.Nodes[call]; !wrapped {
		// A sync call now made through a runtime wrapper: its
		// arguments are all evaluated values.
		funInline = true
		argInline = make([]bool, len(call.Args))
		multi = false
		sig = nil
	}
	lit, isLit := call.Fun.(*dst.FuncLit)
	if !funInline && !isLit {
		fn := fr.temp("fn")
		pre = append(pre, define([]string{fn}, call.Fun))
		call.Fun = ident(fn)
	}
	if multi {
		var names []string
		for i := 0; i < fr.typeOf(a.Call.Args[0]).(*types.Tuple).Len(); i++ {
			names = append(names, fr.temp("a"))
		}
		pre = append(pre, define(names, call.Args[0]))
		call.Args = nil
		for _, nm := range names {
			call.Args = append(call.Args, ident(nm))
		}
	} else {
		for i, arg := range call.Args {
			if i < len(argInline) && argInline[i] {
				continue
			}
			t := fr.temp("a")
			pre = append(pre, fr.tempDecl(t, arg, fr.paramType(sig, i, len(call.Args), call.Ellipsis), i < len(a.Call.Args) && sig != nil && fr.needsType(a.Call.Args[i], sig, i, len(call.Args), call.Ellipsis)))
			call.Args[i] = ident(t)
		}
	}
	if !isLit {
		// No function of the program's own to register the goroutine
		// in: GoSpawn hands it its state through the label pointer it
		// inherits, so that it runs with no frame of racegen's under
		// its function (runtime/spawn.go).
		sp := fr.temp("s")
		pre = append(pre, define([]string{sp}, fr.rtCall(hookGoSpawn)))
		s.Call = call
		done := exprStmt(fr.rtCall(hookGoSpawned, ident(sp)))
		for _, p := range append(pre, done) {
			fr.from(p, s)
		}
		b := block(append(append(pre, s), done)...)
		moveDecs(b, s)
		fr.from(s, s)
		return fr.from(b, s)
	}
	g := fr.temp("g")
	pre = append(pre, define([]string{g}, fr.rtCall(hookGoFork)))
	prologue := []dst.Stmt{
		exprStmt(fr.rtCall(hookGoStart, ident(g))),
		&dst.DeferStmt{Call: fr.rtCall(hookGoEnd)},
	}
	lit.Body.List = append(prologue, lit.Body.List...)
	for _, p := range prologue {
		fr.from(p, s)
	}
	s.Call = call
	for _, p := range pre {
		fr.from(p, s)
	}
	b := block(append(pre, s)...)
	moveDecs(b, s)
	fr.from(s, s)
	return fr.from(b, s)
}

// inlineCallee reports whether the callee of a go statement can stay in
// the goroutine: a declared function (possibly instantiated), a builtin, a
// method expression or a conversion, whose evaluation has no effect.
func (fr *fileRewriter) inlineCallee(fun ast.Expr) bool {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		return fr.inlineCallee(f.X)
	case *ast.IndexListExpr:
		return fr.inlineCallee(f.X)
	case *ast.Ident:
		switch fr.info.Uses[f].(type) {
		case *types.Func, *types.Builtin:
			return true
		}
	case *ast.SelectorExpr:
		if sel, ok := fr.info.Selections[f]; ok {
			return sel.Kind() == types.MethodExpr
		}
		switch fr.info.Uses[f.Sel].(type) {
		case *types.Func, *types.Builtin:
			return true
		}
	}
	return false
}

func isTuple(t types.Type) bool {
	tt, ok := t.(*types.Tuple)
	return ok && tt.Len() > 1
}

// paramType returns the type of the parameter that the ith of n arguments
// is passed to.
func (fr *fileRewriter) paramType(sig *types.Signature, i, n int, ellipsis bool) types.Type {
	if sig == nil {
		return nil
	}
	ps := sig.Params()
	if sig.Variadic() && i >= ps.Len()-1 {
		last := ps.At(ps.Len() - 1).Type()
		if ellipsis {
			return last
		}
		if s, ok := last.(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	}
	if i < ps.Len() {
		return ps.At(i).Type()
	}
	return nil
}

// needsType reports whether a temporary for the ith argument must be
// declared with the parameter's type: the argument is an untyped
// non-constant value (a comparison or shift) whose default type may not be
// assignable to the parameter.
func (fr *fileRewriter) needsType(arg ast.Expr, sig *types.Signature, i, n int, ellipsis bool) bool {
	t := fr.info.Types[arg].Type
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0 && fr.paramType(sig, i, n, ellipsis) != nil
}

// tempDecl declares the temporary name for v: name := v, or var name T = v
// if typed is set and T can be spelled in this file.
func (fr *fileRewriter) tempDecl(name string, v dst.Expr, t types.Type, typed bool) dst.Stmt {
	if typed && t != nil && !hasTypeParam(t) {
		if te, ok := fr.typeExpr(t); ok {
			return &dst.DeclStmt{Decl: &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{&dst.ValueSpec{
				Names: []*dst.Ident{ident(name)}, Type: te, Values: []dst.Expr{v},
			}}}}
		}
	}
	return define([]string{name}, v)
}
