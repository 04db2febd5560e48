package instrument

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
)

// A wrapper is what a call of a function or method whose
// synchronization the detector must see becomes: a hook, or a timer
// helper that the rewriter declares in the package (see timers.go). The
// zero wrapper is none.
type wrapper struct {
	hook  *hook
	timer string // the key of the helper in timerHelpers, if hook is nil
}

// ok reports whether w is a wrapper.
func (w wrapper) ok() bool { return w.hook != nil || w.timer != "" }

// takesSite reports whether w, a hook that wraps an atomic operation,
// takes the site of the access as its last argument.
func (w wrapper) takesSite() bool {
	return w.hook != nil && len(w.hook.params) > 0 && w.hook.params[len(w.hook.params)-1] == siteKind
}

// syncWrapper returns the wrapper of the method fn: a hook for a method
// of a sync or sync/atomic type (see syncWrappers and atomicMethods), a
// timer helper for the Reset methods of time.Timer and time.Ticker, and
// none for other methods.
func syncWrapper(obj types.Object) wrapper {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil {
		return wrapper{}
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return wrapper{}
	}
	rt := sig.Recv().Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	named, ok := rt.(*types.Named)
	if !ok {
		return wrapper{}
	}
	tname := named.Origin().Obj().Name()
	switch fn.Pkg().Path() {
	case "sync":
		return wrapper{hook: syncWrappers[tname][fn.Name()]}
	case "sync/atomic":
		h, ok := atomicMethods[tname+"."+fn.Name()]
		if !ok {
			panic(fmt.Sprintf("racegen does not model (*sync/atomic.%s).%s", tname, fn.Name()))
		}
		return wrapper{hook: h}
	case "time":
		// Resetting a timer or ticker rearms a send on its channel
		// from inside the Go runtime.
		if fn.Name() == "Reset" && (tname == "Timer" || tname == "Ticker") {
			return wrapper{timer: tname + "Reset"}
		}
	}
	return wrapper{}
}

// lockerMethod reports whether sel calls Lock or Unlock through an
// interface or type parameter that satisfies sync.Locker, and returns the
// hook that performs it, or nil.
func lockerMethod(t types.Type, sel *types.Selection) *hook {
	if !types.IsInterface(t) {
		return nil
	}
	h := lockerHooks[sel.Obj().Name()]
	if h == nil {
		return nil
	}
	for _, m := range []string{"Lock", "Unlock"} {
		obj, _, _ := types.LookupFieldOrMethod(t, false, nil, m)
		fn, ok := obj.(*types.Func)
		if !ok {
			return nil
		}
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 0 {
			return nil
		}
	}
	return h
}

// syncCall rewrites a call of a sync or sync/atomic method (also promoted
// through embedding or called on a sync.Locker) to its runtime wrapper,
// and returns nil for other calls.
func (fr *fileRewriter) syncCall(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	fx, ok := x.Fun.(*dst.SelectorExpr)
	if !ok {
		return nil
	}
	fa, ok := a.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	sel, ok := fr.info.Selections[fa]
	if !ok || sel.Kind() != types.MethodVal {
		return nil
	}
	timerChan := false
	if syncWrapper(sel.Obj()).timer != "" && !fr.hasTimeHost() {
		// No file can declare the helper that names time's types.
		if !timerChanFirst(sel.Obj().Type().(*types.Signature).Recv().Type()) {
			return nil
		}
		timerChan = true
	}
	recv, w := fr.syncRecv(fx, fa, sel)
	if recv == nil {
		return nil
	}
	fr.rvalues(x.Args)
	if timerChan {
		// helper(t).Reset(d): the helper releases into t.C.
		fx.X = &dst.CallExpr{Fun: fr.timerHelper("timerChan"), Args: []dst.Expr{recv}}
		return x
	}
	args := append([]dst.Expr{recv}, x.Args...)
	if w.takesSite() {
		_, global := fr.isShared(fa.X)
		if _, ptr := underPointer(fr.typeOf(fa.X)); ptr {
			global = false
		}
		args = append(args, siteLit(fr.newSite(a, global)))
	}
	n := fr.wrapperCall(w, args...)
	n.Ellipsis = x.Ellipsis
	moveDecs(n, x)
	return n
}

// wrapperCall returns the call of the wrapper w of a sync or timer
// method: a hook, or a timer helper (timers.go).
func (fr *fileRewriter) wrapperCall(w wrapper, args ...dst.Expr) *dst.CallExpr {
	if w.hook == nil {
		return &dst.CallExpr{Fun: fr.timerHelper(w.timer), Args: args}
	}
	return fr.rtCall(w.hook, args...)
}

// syncRecv rewrites the receiver of the sync method selected by fx and
// returns it as the wrapper's first argument, with the wrapper. It
// returns nil if fx is not a sync method or its receiver cannot be
// spelled.
func (fr *fileRewriter) syncRecv(fx *dst.SelectorExpr, fa *ast.SelectorExpr, sel *types.Selection) (dst.Expr, wrapper) {
	t0 := fr.typeOf(fa.X)
	if h := lockerMethod(t0, sel); h != nil {
		return fr.rvalue(fx.X), wrapper{hook: h}
	}
	w := syncWrapper(sel.Obj())
	if !w.ok() || w.timer != "" && fr.pkg.Path() == "time" {
		return nil, wrapper{}
	}
	// Spell the path to the embedded sync value: x.F1.F2...
	path := sel.Index()
	var names []string
	t := t0
	spellable := true
	for _, i := range path[:len(path)-1] {
		if p, ok := underPointer(t); ok {
			t = p
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil, wrapper{}
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != fr.pkg {
			spellable = false
		}
		names = append(names, f.Name())
		t = f.Type()
	}
	if !spellable {
		// The last embedded field may still be promoted by name.
		last := names[len(names)-1]
		obj, idx, _ := types.LookupFieldOrMethod(t0, true, fr.pkg, last)
		if _, ok := obj.(*types.Var); !ok || !equalInts(idx, path[:len(path)-1]) {
			return nil, wrapper{}
		}
		names = []string{last}
	}
	_, xptr := underPointer(t0)
	var cur dst.Expr
	if xptr {
		cur = fr.rvalue(fx.X)
	} else {
		cur = fr.base(fx.X)
	}
	for _, n := range names {
		cur = &dst.SelectorExpr{X: cur, Sel: ident(n)}
	}
	if _, ptr := underPointer(t); ptr {
		return cur, w
	}
	return addrOf(cur), w
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// syncMethodValue rewrites the method value x.M of a sync method to a
// function that calls the wrapper with the receiver bound when the method
// value is evaluated, as Go binds it:
//
//	func() func(P) R { r := &x; return func(p P) R { return racegenrt.W(r, p) } }()
func (fr *fileRewriter) syncMethodValue(x *dst.SelectorExpr, a *ast.SelectorExpr, sel *types.Selection) dst.Expr {
	t0 := fr.typeOf(a.X)
	if lockerMethod(t0, sel) == nil && !syncWrapper(sel.Obj()).ok() {
		return nil
	}
	sig, ok := sel.Type().(*types.Signature)
	if !ok {
		return nil
	}
	ftype, ok := fr.typeExpr(sig)
	if !ok {
		return nil
	}
	inner, ok := fr.typeExpr(sig)
	if !ok {
		return nil
	}
	innerType := inner.(*dst.FuncType)
	recv, w := fr.syncRecv(x, a, sel)
	if recv == nil {
		return nil
	}
	r := fr.temp("recv")
	args := []dst.Expr{ident(r)}
	var params []*dst.Field
	for i := 0; i < sig.Params().Len(); i++ {
		p := fr.temp("p")
		args = append(args, ident(p))
		pt, _ := fr.typeExpr(sig.Params().At(i).Type())
		if sig.Variadic() && i == sig.Params().Len()-1 {
			pt = &dst.Ellipsis{Elt: pt.(*dst.ArrayType).Elt}
		}
		params = append(params, &dst.Field{Names: []*dst.Ident{ident(p)}, Type: pt})
	}
	innerType.Params = &dst.FieldList{List: params}
	if w.takesSite() {
		args = append(args, siteLit(fr.newSite(a, false)))
	}
	call := fr.wrapperCall(w, args...)
	call.Ellipsis = sig.Variadic()
	var body dst.Stmt = exprStmt(call)
	if sig.Results().Len() > 0 {
		body = &dst.ReturnStmt{Results: []dst.Expr{call}}
	}
	innerLit := &dst.FuncLit{Type: innerType, Body: &dst.BlockStmt{List: []dst.Stmt{body}}}
	outer := &dst.FuncLit{
		Type: &dst.FuncType{Func: true, Params: &dst.FieldList{}, Results: &dst.FieldList{List: []*dst.Field{{Type: ftype}}}},
		Body: &dst.BlockStmt{List: []dst.Stmt{
			define([]string{r}, recv),
			&dst.ReturnStmt{Results: []dst.Expr{innerLit}},
		}},
	}
	n := &dst.CallExpr{Fun: outer}
	moveDecs(n, x)
	return n
}

// syncMethodExpr rewrites the method expression (*T).M of a sync type to
// the runtime wrapper, which has the same signature.
func (fr *fileRewriter) syncMethodExpr(x *dst.SelectorExpr, a *ast.SelectorExpr, sel *types.Selection) dst.Expr {
	w := syncWrapper(sel.Obj())
	if w.hook == nil || len(sel.Index()) != 1 || w.hook == hookRLocker {
		return nil
	}
	if _, ptr := sel.Recv().(*types.Pointer); !ptr {
		return nil
	}
	if named, ok := sel.Recv().(*types.Pointer).Elem().(*types.Named); !ok || named.TypeArgs() != nil {
		return nil // generic: the instantiation would have to be spelled
	}
	var n dst.Expr
	if w.takesSite() {
		// The wrapper takes a site, so it cannot stand for the method.
		sig, ok := sel.Type().(*types.Signature)
		if !ok {
			return nil
		}
		if n = fr.funcValue(sig, w.hook, siteLit(fr.newSite(a, false))); n == nil {
			return nil
		}
	} else {
		n = fr.rt(w.hook)
	}
	moveDecs(n, x)
	return n
}

// typeExpr returns an expression that denotes t in this file, and false if
// t cannot be spelled here (a type of a package the file does not import).
func (fr *fileRewriter) typeExpr(t types.Type) (dst.Expr, bool) {
	s, ok := fr.typeString(t)
	if !ok {
		return nil, false
	}
	e, err := parser.ParseExpr(s)
	if err != nil {
		return nil, false
	}
	d, err := decorator.NewDecorator(token.NewFileSet()).DecorateNode(e)
	if err != nil {
		return nil, false
	}
	de, isExpr := d.(dst.Expr)
	return de, isExpr
}

// importNames maps the paths of the file's imports to the names it uses
// for them.
func (fr *fileRewriter) importNames() map[string]string {
	m := make(map[string]string)
	for _, imp := range fr.file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		if imp.Name != nil {
			if imp.Name.Name != "_" && imp.Name.Name != "." {
				m[path] = imp.Name.Name
			}
			continue
		}
		for _, p := range fr.pkg.Imports() {
			if p.Path() == path {
				m[path] = p.Name()
			}
		}
	}
	return m
}
