package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/racegen/racegen/analysis"
)

// replaceObj returns the wrapper that replaces uses of obj, a function
// whose synchronization or exit the detector must see, or none if obj is
// not one: sync.OnceFunc, OnceValue and OnceValues, which hooks replace
// (replacedFuncs), and time.NewTimer, After, AfterFunc,
// NewTicker and Tick, whose channels are sent on and functions started
// from inside the Go runtime, which helpers of the package replace (see
// timers.go). The replacements have the signatures of the originals, so
// they serve as values too. The functions of sync/atomic are replaced
// too (see atomicFunc), by hooks that take a site.
func (fr *fileRewriter) replaceObj(obj types.Object) wrapper {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil {
		return wrapper{}
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		return wrapper{}
	}
	if h := replacedFuncs[fn.Pkg().Path()+"."+fn.Name()]; h != nil {
		return wrapper{hook: h}
	}
	if fn.Pkg().Path() == "time" && fr.pkg.Path() != "time" { // time's own calls are the helpers'
		switch fn.Name() {
		case "NewTimer", "After", "AfterFunc", "NewTicker", "Tick":
			return wrapper{timer: fn.Name()}
		}
	}
	return wrapper{}
}

// atomicFunc returns the hook that wraps obj if it is a function of
// sync/atomic (see atomicFuncs), and nil otherwise. The wrapper takes
// the site of the atomic access as an extra last parameter.
func atomicFunc(obj types.Object) *hook {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return nil
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return nil
	}
	h, ok := atomicFuncs[fn.Name()]
	if !ok {
		panic(fmt.Sprintf("racegen does not model sync/atomic.%s", fn.Name()))
	}
	return h
}

// calleeObj returns the function or method that the callee expression fun
// names, or nil.
func (fr *fileRewriter) calleeObj(fun ast.Expr) types.Object {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return fr.info.Uses[f]
	case *ast.SelectorExpr:
		if sel, ok := fr.info.Selections[f]; ok {
			return sel.Obj()
		}
		return fr.info.Uses[f.Sel]
	case *ast.IndexExpr:
		return fr.calleeObj(f.X)
	case *ast.IndexListExpr:
		return fr.calleeObj(f.X)
	}
	return nil
}

// atomicSite numbers the site of an atomic operation on the memory that
// the address addr points to, marked global when addr is &v for a
// package-level variable v.
func (fr *fileRewriter) atomicSite(call ast.Node, addr ast.Expr) dst.Expr {
	global := false
	if u, ok := ast.Unparen(addr).(*ast.UnaryExpr); ok && u.Op == token.AND {
		_, global = fr.isShared(u.X)
	}
	return siteLit(fr.newSite(call, global))
}

// atomicCall rewrites a call of a function of sync/atomic to its wrapper:
// atomic.AddInt64(&x, 1) becomes racegenrt.AtomicAddInt64(&x, 1, site).
func (fr *fileRewriter) atomicCall(x *dst.CallExpr, a *ast.CallExpr, h *hook) dst.Expr {
	fr.rvalues(x.Args)
	if len(a.Args) == 0 {
		return x
	}
	args := append(append([]dst.Expr{}, x.Args...), fr.atomicSite(a, a.Args[0]))
	n := fr.rtCall(h, args...)
	moveDecs(n, x)
	return n
}

// funcValue returns a function literal with the signature sig that calls
// the hook h with its parameters, then the extra
// arguments: a function value for a wrapper whose signature differs from
// the original's. It returns nil if sig cannot be spelled in this file.
func (fr *fileRewriter) funcValue(sig *types.Signature, h *hook, extra ...dst.Expr) dst.Expr {
	ft, ok := fr.typeExpr(types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic()))
	if !ok {
		return nil
	}
	ftype := ft.(*dst.FuncType)
	var args []dst.Expr
	var params []*dst.Field
	for i := 0; i < sig.Params().Len(); i++ {
		p := fr.temp("p")
		args = append(args, ident(p))
		pt, ok := fr.typeExpr(sig.Params().At(i).Type())
		if !ok {
			return nil
		}
		if sig.Variadic() && i == sig.Params().Len()-1 {
			pt = &dst.Ellipsis{Elt: pt.(*dst.ArrayType).Elt}
		}
		params = append(params, &dst.Field{Names: []*dst.Ident{ident(p)}, Type: pt})
	}
	ftype.Params = &dst.FieldList{List: params}
	call := fr.rtCall(h, append(args, extra...)...)
	var body dst.Stmt = exprStmt(call)
	if sig.Results().Len() > 0 {
		body = &dst.ReturnStmt{Results: []dst.Expr{call}}
	}
	return &dst.FuncLit{Type: ftype, Body: &dst.BlockStmt{List: []dst.Stmt{body}}}
}

// call rewrites a call expression: conversions, builtins, synchronization
// and ordinary calls.
func (fr *fileRewriter) call(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	if tv, ok := fr.info.Types[a.Fun]; ok {
		switch {
		case tv.IsType():
			return fr.conversion(x, a)
		case tv.IsBuiltin():
			return fr.builtin(x, a)
		}
	}
	if h := atomicFunc(fr.calleeObj(a.Fun)); h != nil {
		return fr.atomicCall(x, a, h)
	}
	if n := fr.raceCall(x, a); n != nil {
		return n
	}
	if n := fr.syncCall(x, a); n != nil {
		return n
	}
	fr.plainCall(x, a)
	if n := fr.runtimeFunc(x, a); n != nil {
		return n
	}
	fr.wrapCallback(x, a)
	if sig := fr.ioFunc(a); sig != nil {
		return fr.ioCall(x, a, sig)
	}
	return x
}

// plainCall rewrites the callee and arguments of a call of a function or
// method that is not replaced.
func (fr *fileRewriter) plainCall(x *dst.CallExpr, a *ast.CallExpr) {
	if fx, ok := x.Fun.(*dst.SelectorExpr); ok {
		if fa, ok := a.Fun.(*ast.SelectorExpr); ok {
			if sel, ok := fr.info.Selections[fa]; ok && sel.Kind() == types.MethodVal {
				fr.receiver(fx, fa, sel)
				fr.rvalues(x.Args)
				return
			}
		}
	}
	x.Fun = fr.rvalue(x.Fun)
	fr.rvalues(x.Args)
}

// conversion rewrites T(x). Converting a slice to a string reads all of
// its elements.
func (fr *fileRewriter) conversion(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	if len(x.Args) != 1 {
		return x
	}
	x.Args[0] = fr.rvalue(x.Args[0])
	to, from := under(fr.typeOf(a)), under(fr.typeOf(a.Args[0]))
	if b, ok := to.(*types.Basic); ok && b.Info()&types.IsString != 0 {
		if s, ok := from.(*types.Slice); ok && !fr.zeroSize(s.Elem()) && !hasTypeParam(fr.typeOf(a.Args[0])) {
			if fr.localTarget(a.Args[0]) {
				fr.dropped++
			} else if n := fr.containerHook(hookSliceR, x.Args[0], a); n != nil {
				moveDecs(n, x.Args[0])
				x.Args[0] = n
			}
		}
	}
	return x
}

// localTarget reports whether Config.LocalTarget finds all that the value
// of e refers to local to one goroutine.
func (fr *fileRewriter) localTarget(e ast.Expr) bool {
	return fr.cfg.LocalTarget != nil && fr.cfg.LocalTarget(e)
}

// builtin rewrites a call of a builtin function.
func (fr *fileRewriter) builtin(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	name := analysis.BuiltinName(fr.info, a.Fun)
	switch name {
	case "Sizeof", "Alignof", "Offsetof":
		return x // not evaluated
	case "append":
		return fr.appendCall(x, a)
	case "copy":
		return fr.copyCall(x, a)
	case "delete", "clear":
		if len(x.Args) == 0 {
			return x
		}
		fr.rvalues(x.Args)
		t := fr.typeOf(a.Args[0])
		if hasTypeParam(t) {
			return x
		}
		var h *hook
		switch u := under(t).(type) {
		case *types.Map:
			h = hookMapW
		case *types.Slice:
			if !fr.zeroSize(u.Elem()) {
				h = hookSliceW
			}
		}
		if h != nil {
			if fr.localTarget(a.Args[0]) {
				fr.dropped++
			} else if n := fr.containerHook(h, x.Args[0], a); n != nil {
				moveDecs(n, x.Args[0])
				x.Args[0] = n
			}
		}
		return x
	case "close":
		fr.rvalues(x.Args)
		if len(x.Args) == 1 && fr.chanElem(a.Args[0]) != nil {
			n := fr.rtCall(hookClose, x.Args[0], siteLit(fr.newSite(a, false)))
			moveDecs(n, x)
			return n
		}
		return x
	}
	for i, arg := range x.Args {
		if tv, ok := fr.info.Types[a.Args[i]]; ok && tv.IsType() {
			continue // new(T), make(T, n)
		}
		x.Args[i] = fr.rvalue(arg)
	}
	if (name == "len" || name == "cap") && len(x.Args) == 1 && fr.isMap(a.Args[0]) && !hasTypeParam(fr.typeOf(a.Args[0])) {
		// len(m) reads the map's count, as a lookup does.
		if fr.localTarget(a.Args[0]) {
			fr.dropped++
		} else if n := fr.containerHook(hookMapR, x.Args[0], a); n != nil {
			moveDecs(n, x.Args[0])
			x.Args[0] = n
		}
	}
	return x
}

// appendCall rewrites append(s, x...) to racegenrt.Append(site, s, x...),
// which records the read of x and the write of the part of s's array that
// append fills in place. When the element types of the arguments would
// defeat type inference the call is left a plain append.
func (fr *fileRewriter) appendCall(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	fr.rvalues(x.Args)
	if len(x.Args) < 2 || !fr.containerHooks() {
		return x
	}
	st := fr.typeOf(a.Args[0])
	if _, isTP := st.(*types.TypeParam); isTP {
		return x
	}
	sl, ok := st.Underlying().(*types.Slice)
	if !ok || fr.zeroSize(sl.Elem()) {
		return x
	}
	fun := hookAppend
	if x.Ellipsis {
		at := fr.typeOf(a.Args[1])
		if _, isTP := at.(*types.TypeParam); isTP {
			return x
		}
		if b, ok := under(at).(*types.Basic); ok && b.Info()&types.IsString != 0 {
			if !types.Identical(sl.Elem(), types.Typ[types.Byte]) || !isString(at) {
				return x
			}
			fun = hookAppendString
		}
	} else {
		for _, arg := range a.Args[1:] {
			tv := fr.info.Types[arg]
			if tv.Value != nil || tv.IsNil() {
				continue
			}
			if !types.Identical(tv.Type, sl.Elem()) {
				return x
			}
		}
	}
	if fr.localTarget(a.Args[0]) && (!x.Ellipsis || fun == hookAppendString || fr.localTarget(a.Args[1])) {
		fr.dropped++
		return x
	}
	n := fr.rtCall(fun, append([]dst.Expr{siteLit(fr.newSite(a, false))}, x.Args...)...)
	n.Ellipsis = x.Ellipsis && fun == hookAppend
	moveDecs(n, x)
	return n
}

// copyCall rewrites copy(dst, src) to racegenrt.Copy or CopyString, which
// record the ranges copied.
func (fr *fileRewriter) copyCall(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	fr.rvalues(x.Args)
	if len(x.Args) != 2 || !fr.containerHooks() {
		return x
	}
	dt, stype := fr.typeOf(a.Args[0]), fr.typeOf(a.Args[1])
	if hasTypeParam(dt) || hasTypeParam(stype) {
		return x
	}
	ds, ok := dt.Underlying().(*types.Slice)
	if !ok || fr.zeroSize(ds.Elem()) {
		return x
	}
	fun := hookCopy
	if b, ok := stype.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		if !types.Identical(ds.Elem(), types.Typ[types.Byte]) || !isString(stype) {
			return x
		}
		fun = hookCopyString
	}
	if fr.localTarget(a.Args[0]) && (fun == hookCopyString || fr.localTarget(a.Args[1])) {
		fr.dropped++
		return x
	}
	n := fr.rtCall(fun, x.Args[0], x.Args[1], siteLit(fr.newSite(a, false)))
	moveDecs(n, x)
	return n
}

// isString reports whether a value of type t can be passed as a string
// parameter: t is string or untyped string.
func isString(t types.Type) bool {
	return types.Identical(types.Default(t), types.Typ[types.String])
}
