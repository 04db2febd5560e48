package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/racegen/racegen/analysis"
)

// This file rewrites expressions. Each access is rewritten in place:
//
//	read x      *racegenrt.R(&x, site, &ctx)
//	write x     *racegenrt.W(&x, site, &ctx)
//	m[k]        racegenrt.MapR(m, site)[k], or MapW when written
//
// so the hook call joins the calls of the expression in their order and
// the address is computed once, where the operand was. Three views of an
// expression are needed: its value (rvalue), the target of a store
// (store), and its address only (place), as for the operand of & or the
// base of a field selection, where the memory is not accessed as a whole.

// astExpr returns the original expression of the dst expression e, and
// false for an expression the rewriter made.
func (fr *fileRewriter) astExpr(e dst.Expr) (ast.Expr, bool) {
	a, ok := fr.dec.Ast.Nodes[e].(ast.Expr)
	return a, ok
}

func (fr *fileRewriter) typeOf(a ast.Expr) types.Type { return fr.info.TypeOf(a) }

// rvalue rewrites e, whose value the program uses.
func (fr *fileRewriter) rvalue(e dst.Expr) dst.Expr {
	a, ok := fr.astExpr(e)
	if !ok {
		return e
	}
	if tv, ok := fr.info.Types[a]; ok && (tv.Value != nil || tv.IsType() || tv.IsBuiltin()) {
		// Constant expressions are not evaluated at run time, and type
		// expressions not at all.
		return e
	}
	switch x := e.(type) {
	case *dst.Ident:
		if n := fr.replaceFunc(x, a, fr.info.Uses[a.(*ast.Ident)]); n != nil {
			return n
		}
		return fr.hook(a, x, false)
	case *dst.ParenExpr:
		x.X = fr.rvalue(x.X)
	case *dst.SelectorExpr:
		return fr.selector(x, a.(*ast.SelectorExpr))
	case *dst.IndexExpr:
		return fr.index(x, a.(*ast.IndexExpr), false)
	case *dst.IndexListExpr:
		x.X = fr.rvalue(x.X) // an instantiation
	case *dst.SliceExpr:
		if isArray(fr.typeOf(a.(*ast.SliceExpr).X)) {
			x.X = fr.base(x.X)
		} else {
			x.X = fr.rvalue(x.X)
		}
		x.Low, x.High, x.Max = fr.rvalueOpt(x.Low), fr.rvalueOpt(x.High), fr.rvalueOpt(x.Max)
	case *dst.StarExpr:
		x.X = fr.rvalue(x.X)
		return fr.hook(a, x, false)
	case *dst.UnaryExpr:
		switch x.Op {
		case token.AND:
			x.X = fr.place(x.X)
		case token.ARROW:
			return fr.recv(x, a.(*ast.UnaryExpr))
		default:
			x.X = fr.rvalue(x.X)
		}
	case *dst.BinaryExpr:
		x.X = fr.rvalue(x.X)
		x.Y = fr.rvalue(x.Y)
	case *dst.CallExpr:
		return fr.call(x, a.(*ast.CallExpr))
	case *dst.CompositeLit:
		fr.compositeLit(x, a.(*ast.CompositeLit))
	case *dst.FuncLit:
		fr.funcLit(x)
	case *dst.TypeAssertExpr:
		x.X = fr.rvalue(x.X)
	}
	return e
}

// replaceFunc returns the replacement of x, which names the function obj
// used as a value, or nil if obj needs none (see replaceObj and
// atomicFunc).
func (fr *fileRewriter) replaceFunc(x dst.Expr, a ast.Expr, obj types.Object) dst.Expr {
	var n dst.Expr
	if w := fr.replaceObj(obj); w.timer != "" {
		n = fr.timerHelper(w.timer)
	} else if w.hook != nil {
		n = fr.rt(w.hook)
	} else if h := atomicFunc(obj); h != nil {
		n = fr.funcValue(obj.Type().(*types.Signature), h, siteLit(fr.newSite(a, false)))
	}
	if n != nil {
		moveDecs(n, x)
	}
	return n
}

func (fr *fileRewriter) rvalueOpt(e dst.Expr) dst.Expr {
	if e == nil {
		return nil
	}
	return fr.rvalue(e)
}

func (fr *fileRewriter) rvalues(es []dst.Expr) {
	for i, e := range es {
		es[i] = fr.rvalue(e)
	}
}

// store rewrites e, the target of an assignment, an op= or ++ (W covers
// their read too).
func (fr *fileRewriter) store(e dst.Expr) dst.Expr {
	a, ok := fr.astExpr(e)
	if !ok {
		return e
	}
	if id, ok := a.(*ast.Ident); ok && id.Name == "_" {
		return e
	}
	if x, ok := e.(*dst.IndexExpr); ok {
		if fr.isMap(a.(*ast.IndexExpr).X) {
			return fr.index(x, a.(*ast.IndexExpr), true)
		}
	}
	return fr.hook(a, fr.place(e), true)
}

// place rewrites the addressable e for its address: the operands that
// locate it are evaluated (and their accesses hooked), e itself is not
// accessed.
func (fr *fileRewriter) place(e dst.Expr) dst.Expr {
	a, ok := fr.astExpr(e)
	if !ok {
		return e
	}
	switch x := e.(type) {
	case *dst.Ident:
		return x
	case *dst.ParenExpr:
		x.X = fr.place(x.X)
		return x
	case *dst.SelectorExpr:
		sel, ok := fr.info.Selections[a.(*ast.SelectorExpr)]
		if !ok {
			return x // a qualified identifier
		}
		if sel.Kind() == types.FieldVal {
			if _, ptr := underPointer(fr.typeOf(a.(*ast.SelectorExpr).X)); ptr {
				x.X = fr.rvalue(x.X)
			} else {
				x.X = fr.base(x.X)
			}
			return x
		}
	case *dst.IndexExpr:
		ax := a.(*ast.IndexExpr)
		if isArray(fr.typeOf(ax.X)) {
			x.X = fr.base(x.X)
			x.Index = fr.rvalue(x.Index)
			return x
		}
		if !fr.isMap(ax.X) {
			x.X = fr.rvalue(x.X)
			x.Index = fr.rvalue(x.Index)
			return x
		}
	case *dst.StarExpr:
		x.X = fr.rvalue(x.X)
		return x
	}
	return fr.rvalue(e)
}

// base rewrites the operand of a field selection or array index: its
// place if it is addressable, its value otherwise.
func (fr *fileRewriter) base(e dst.Expr) dst.Expr {
	if a, ok := fr.astExpr(e); ok && fr.addressable(a) {
		return fr.place(e)
	}
	return fr.rvalue(e)
}

// hook wraps e, the rewritten place of the access a, in the hook that
// records a read or write of it, if a may be shared.
func (fr *fileRewriter) hook(a ast.Expr, e dst.Expr, write bool) dst.Expr {
	n := fr.hookAt(a, e, write)
	if n != e {
		fr.noteHook(a, n, write)
	}
	return n
}

// hookAt is hook for an access whose hook the rewriter moves away from
// where a is in the source, and which therefore cannot take part in the
// judgement of redundant accesses (redundant.go).
func (fr *fileRewriter) hookAt(a ast.Expr, e dst.Expr, write bool) dst.Expr {
	shared, global := fr.isShared(a)
	if !shared || fr.zeroSize(fr.typeOf(a)) || fr.ranged[a] {
		return e
	}
	if fr.cfg.Local != nil && fr.cfg.Local(a) {
		fr.dropped++
		return e
	}
	h := fr.accessHook(a, write)
	if h == nil {
		return e
	}
	n := deref(fr.accessHookCall(h, fr.addr(e), fr.typeOf(a), fr.newSite(a, global)))
	moveDecs(n, e)
	return n
}

// addr returns &e, or p for e = *p.
func (fr *fileRewriter) addr(e dst.Expr) dst.Expr {
	if s, ok := e.(*dst.StarExpr); ok {
		moveDecs(s.X, s)
		return s.X
	}
	return addrOf(e)
}

// zeroSize reports whether values of t occupy no memory; accessing them
// cannot race.
func (fr *fileRewriter) zeroSize(t types.Type) (zero bool) {
	if t == nil || hasTypeParam(t) {
		return false
	}
	defer func() {
		if recover() != nil {
			zero = false
		}
	}()
	return sizes.Sizeof(t) == 0
}

var sizes = types.SizesFor("gc", "amd64")

// hasTypeParam reports whether t mentions a type parameter, whose size is
// not known until instantiation.
func hasTypeParam(t types.Type) bool {
	found := false
	var visit func(t types.Type, depth int)
	visit = func(t types.Type, depth int) {
		if found || depth > 8 {
			return
		}
		switch t := t.(type) {
		case *types.TypeParam:
			found = true
		case *types.Named:
			if ta := t.TypeArgs(); ta != nil {
				for i := 0; i < ta.Len(); i++ {
					visit(ta.At(i), depth+1)
				}
			}
			visit(t.Underlying(), depth+1)
		case *types.Array:
			visit(t.Elem(), depth+1)
		case *types.Slice:
			visit(t.Elem(), depth+1)
		case *types.Pointer:
			visit(t.Elem(), depth+1)
		case *types.Map:
			visit(t.Key(), depth+1)
			visit(t.Elem(), depth+1)
		case *types.Chan:
			visit(t.Elem(), depth+1)
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				visit(t.Field(i).Type(), depth+1)
			}
		}
	}
	visit(t, 0)
	return found
}

func (fr *fileRewriter) isMap(a ast.Expr) bool {
	_, ok := under(fr.typeOf(a)).(*types.Map)
	return ok
}

// selector rewrites x.f, pkg.Name or a method value, used as a value.
func (fr *fileRewriter) selector(x *dst.SelectorExpr, a *ast.SelectorExpr) dst.Expr {
	sel, ok := fr.info.Selections[a]
	if !ok {
		if n := fr.replaceFunc(x, a, fr.info.Uses[a.Sel]); n != nil {
			return n
		}
		return fr.hook(a, x, false)
	}
	switch sel.Kind() {
	case types.FieldVal:
		return fr.hook(a, fr.place(x), false)
	case types.MethodVal:
		if n := fr.syncMethodValue(x, a, sel); n != nil {
			return n
		}
		fr.receiver(x, a, sel)
	case types.MethodExpr:
		if n := fr.syncMethodExpr(x, a, sel); n != nil {
			return n
		}
	}
	return x
}

// receiver rewrites the receiver of the method call or method value x: a
// pointer method takes the receiver's address, a value method copies
// (reads) the receiver.
func (fr *fileRewriter) receiver(x *dst.SelectorExpr, a *ast.SelectorExpr, sel *types.Selection) {
	_, xptr := underPointer(fr.typeOf(a.X))
	switch {
	case types.IsInterface(fr.typeOf(a.X)):
		x.X = fr.rvalue(x.X)
	case len(sel.Index()) > 1 && fr.promotedRecv(x, a, sel):
	case len(sel.Index()) > 1:
		// Promoted through embedded fields that cannot be spelled
		// here: the loads along the path are not modelled.
		if xptr {
			x.X = fr.rvalue(x.X)
		} else {
			x.X = fr.base(x.X)
		}
	case analysis.PointerMethod(sel.Obj()):
		if xptr {
			x.X = fr.rvalue(x.X)
		} else {
			x.X = fr.base(x.X)
		}
	case xptr:
		// A value method through a pointer copies *x.
		x.X = fr.rvalue(x.X)
		elem, _ := underPointer(fr.typeOf(a.X))
		if !fr.zeroSize(elem) {
			if fr.cfg.Local != nil && fr.cfg.Local(a) {
				fr.dropped++
			} else if c := fr.accessCall(x.X, elem, a, false, false); c != nil {
				x.X = c
			}
		}
	default:
		x.X = fr.rvalue(x.X)
	}
}

// promotedRecv rewrites the receiver of x.M, a method promoted through
// embedded fields, to the explicit path x.E1.E2, so that the loads along
// it are recorded: each embedded pointer read, and the copy of the
// receiver if M has a value receiver. It returns false, leaving x alone,
// if the path cannot be spelled in this package.
func (fr *fileRewriter) promotedRecv(x *dst.SelectorExpr, a *ast.SelectorExpr, sel *types.Selection) bool {
	path := sel.Index()[:len(sel.Index())-1]
	t0 := fr.typeOf(a.X)
	var fields []*types.Var
	t := t0
	for _, i := range path {
		if p, ok := underPointer(t); ok {
			t = p
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != fr.pkg || hasTypeParam(f.Type()) {
			return false
		}
		fields = append(fields, f)
		t = f.Type()
	}
	_, xptr := underPointer(t0)
	shared, global := fr.isShared(a.X)
	var cur dst.Expr
	addressable := xptr || fr.addressable(a.X)
	if xptr {
		cur = fr.rvalue(x.X)
		shared, global = true, false
	} else {
		cur = fr.base(x.X)
	}
	valueRecv := !analysis.PointerMethod(sel.Obj())
	read := func(p dst.Expr, t types.Type, global bool) dst.Expr {
		if c := fr.accessCall(p, t, a, global, false); c != nil {
			return c
		}
		return p
	}
	for k, f := range fields {
		var e dst.Expr = &dst.SelectorExpr{X: cur, Sel: ident(f.Name())}
		last := k == len(fields)-1
		elem, fptr := underPointer(f.Type())
		if (fptr || last && valueRecv) && shared && addressable && !fr.zeroSize(f.Type()) {
			// Loading the embedded pointer, or copying the receiver.
			e = deref(read(addrOf(e), f.Type(), global))
		}
		if fptr {
			if last && valueRecv && !fr.zeroSize(elem) {
				// A value method through an embedded pointer copies
				// what it points to.
				e = deref(read(e, elem, false))
			}
			shared, global, addressable = true, false, true
		}
		cur = e
	}
	x.X = cur
	return true
}

// index rewrites x[i] used as a value, or as a store target if write.
func (fr *fileRewriter) index(x *dst.IndexExpr, a *ast.IndexExpr, write bool) dst.Expr {
	if tv, ok := fr.info.Types[a.Index]; ok && tv.IsType() {
		x.X = fr.rvalue(x.X) // an instantiation
		return x
	}
	switch under(fr.typeOf(a.X)).(type) {
	case *types.Map:
		m := fr.rvalue(x.X)
		h := hookMapR
		if write {
			h = hookMapW
		}
		if fr.cfg.Local != nil && fr.cfg.Local(a) {
			fr.dropped++
		} else if !hasTypeParam(fr.typeOf(a.X)) {
			if n := fr.containerHook(h, m, a); n != nil {
				moveDecs(n, m)
				m = n
			}
		}
		x.X = m
		x.Index = fr.rvalue(x.Index)
		return x
	case *types.Basic: // a string: immutable
		x.X = fr.rvalue(x.X)
		x.Index = fr.rvalue(x.Index)
		return x
	}
	return fr.hook(a, fr.place(x), write)
}

// compositeLit rewrites the elements of a composite literal.
func (fr *fileRewriter) compositeLit(x *dst.CompositeLit, a *ast.CompositeLit) {
	t := under(fr.typeOf(a))
	if p, ok := t.(*types.Pointer); ok { // &T elided in an outer literal
		t = under(p.Elem())
	}
	_, isStruct := t.(*types.Struct)
	for i, el := range x.Elts {
		if kv, ok := el.(*dst.KeyValueExpr); ok {
			if !isStruct {
				kv.Key = fr.rvalue(kv.Key)
			}
			kv.Value = fr.rvalue(kv.Value)
			continue
		}
		x.Elts[i] = fr.rvalue(el)
	}
}

// funcLit rewrites the body of a function literal.
func (fr *fileRewriter) funcLit(x *dst.FuncLit) {
	saved, savedMain := fr.fn, fr.main
	fr.fn, fr.main = x, false
	fr.blockStmt(x.Body)
	fr.fn, fr.main = saved, savedMain
}
