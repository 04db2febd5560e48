package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// sharedVars returns the local variables of the package that another
// goroutine may reach: those whose address is taken, explicitly or by a
// pointer-method call or by slicing an array, and those captured by a
// closure. Every other local lives in its goroutine only, and its accesses
// get no hook. Package-level variables are always shared and are not in
// the map.
func sharedVars(files []*ast.File, pkg *types.Package, info *types.Info) map[*types.Var]bool {
	shared := make(map[*types.Var]bool)
	local := func(id *ast.Ident) *types.Var {
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Pkg() != pkg || isGlobal(v) {
			return nil
		}
		return v
	}
	// root returns the variable whose memory the addressable e is part of.
	var root func(e ast.Expr) *types.Var
	root = func(e ast.Expr) *types.Var {
		switch e := e.(type) {
		case *ast.Ident:
			return local(e)
		case *ast.ParenExpr:
			return root(e.X)
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[e]; ok && sel.Kind() == types.FieldVal && !sel.Indirect() {
				if _, ptr := underPointer(info.TypeOf(e.X)); !ptr {
					return root(e.X)
				}
			}
		case *ast.IndexExpr:
			if isArray(info.TypeOf(e.X)) {
				return root(e.X)
			}
		}
		return nil
	}
	mark := func(e ast.Expr) {
		if v := root(e); v != nil {
			shared[v] = true
		}
	}
	for _, f := range files {
		var lits []*ast.FuncLit
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				lits = append(lits, n)
				ast.Inspect(n.Body, visit)
				lits = lits[:len(lits)-1]
				return false
			case *ast.Ident:
				if v := local(n); v != nil && len(lits) > 0 {
					lit := lits[len(lits)-1]
					if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
						shared[v] = true
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					mark(n.X)
				}
			case *ast.SliceExpr:
				if isArray(info.TypeOf(n.X)) {
					mark(n.X)
				}
			case *ast.SelectorExpr:
				// x.M() and x.M with a pointer method on an addressable
				// x take x's address.
				if sel, ok := info.Selections[n]; ok && sel.Kind() == types.MethodVal {
					if _, ptr := underPointer(info.TypeOf(n.X)); !ptr && pointerRecv(sel.Obj()) {
						mark(n.X)
					}
				}
			}
			return true
		}
		ast.Inspect(f, visit)
	}
	return shared
}

// underPointer returns the element type of t if t's underlying type is a
// pointer type.
func underPointer(t types.Type) (types.Type, bool) {
	if t == nil {
		return nil, false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem(), true
	}
	return nil, false
}

func isArray(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// pointerRecv reports whether the method obj has a pointer receiver.
func pointerRecv(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ptr := sig.Recv().Type().(*types.Pointer)
	return ptr
}
