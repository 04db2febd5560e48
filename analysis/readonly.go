package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
)

// readOnlyVars returns the local variables of the package that are never
// written after their initialization. Such a variable cannot take part in
// a data race, even when a closure that captures it runs on another
// goroutine: its one write, the initialization, happens when its
// declaration executes, before any closure that refers to it can exist,
// and a closure reaches another goroutine only through a go statement or
// another synchronizing operation (which orders the write before
// everything the other goroutine does), or through a racy publication
// (which is a race on the memory holding the closure, reported there).
// All later accesses are reads, and reads do not race with each other.
// The Go compiler relies on the same property when it captures such
// variables by value.
//
// A variable qualifies only if it is declared in one of these ways, each
// of which writes it once, when the declaration executes:
//
//   - a parameter or receiver (not a result: return statements write
//     named results);
//   - var x T or var x = e;
//   - x := e, including in the header of an if, switch, for or select
//     case (a variable that := redeclares is written, not declared);
//   - the key or value of a for range clause with :=, if the file has
//     Go 1.22 or later semantics, where every iteration has its own
//     variable (before, the range clause wrote one variable every
//     iteration);
//   - the variable a type switch guard declares in each clause.
//
// and it is written nowhere: no assignment (=, op=, ++, --, a range
// clause with =, a select case with =, a redeclaration by :=) has it, or
// a field or array element of it, on its left, and its address is never
// taken, neither by & nor implicitly, by calling a pointer method on it
// or on a field or element of it, or by slicing it. Reflection and
// unsafe can only write a variable through its address. Where a type
// parameter may be an array, indexing and slicing count as if it were
// one.
func readOnlyVars(files []*ast.File, pkg *types.Package, info *types.Info) map[*types.Var]bool {
	ro := make(map[*types.Var]bool)
	written := make(map[*types.Var]bool)
	def := func(id *ast.Ident) {
		if v, ok := info.Defs[id].(*types.Var); ok && !v.IsField() && v.Pkg() == pkg && v.Parent() != pkg.Scope() {
			ro[v] = true
		}
	}
	// write marks as written the variable that e, an assignment's
	// left operand or an operand whose address is taken, is part of.
	write := func(e ast.Expr) {
		if v := writtenVar(info, e); v != nil {
			written[v] = true
		}
	}
	for _, f := range files {
		perIteration := perIterationLoops(pkg, info, f)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Recv != nil {
					for _, fld := range n.Recv.List {
						for _, id := range fld.Names {
							def(id)
						}
					}
				}
			case *ast.FuncType:
				// Parameters of function literals and declarations;
				// in function types the names declare nothing that
				// is ever used.
				for _, fld := range n.Params.List {
					for _, id := range fld.Names {
						def(id)
					}
				}
			case *ast.ValueSpec:
				// A package-level var has the package scope as parent
				// and is left out by def.
				for _, id := range n.Names {
					def(id)
				}
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && n.Tok == token.DEFINE && info.Defs[id] != nil {
						def(id)
						continue
					}
					write(lhs)
				}
			case *ast.IncDecStmt:
				write(n.X)
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e == nil {
						continue
					}
					if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE && perIteration {
						def(id)
						continue
					}
					write(e)
				}
			case *ast.TypeSwitchStmt:
				for _, s := range n.Body.List {
					if v, ok := info.Implicits[s].(*types.Var); ok && v.Pkg() == pkg {
						ro[v] = true
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					write(n.X)
				}
			case *ast.SliceExpr:
				if mayBeArray(info.TypeOf(n.X)) {
					write(n.X)
				}
			case *ast.SelectorExpr:
				// x.M() and x.M with a pointer method on an addressable
				// x take x's address.
				if sel, ok := info.Selections[n]; ok && sel.Kind() == types.MethodVal && pointerMethod(sel.Obj()) {
					if _, ptr := coreType(info.TypeOf(n.X)).(*types.Pointer); !ptr {
						write(n.X)
					}
				}
			}
			return true
		})
	}
	for v := range written {
		delete(ro, v)
	}
	return ro
}

// perIterationLoops reports whether the range loops of f declare a new
// variable for every iteration, as they do from Go 1.22 on. An unknown
// version counts as older.
func perIterationLoops(pkg *types.Package, info *types.Info, f *ast.File) bool {
	v := info.FileVersions[f]
	if v == "" {
		v = pkg.GoVersion()
	}
	return version.IsValid(v) && version.Compare(v, "go1.22") >= 0
}

// writtenVar returns the local or package-level variable whose own memory
// the expression e is part of, if e, written or taken by address, writes
// the variable: the variable itself, a field of it (selected without
// going through a pointer), or an element of it if it may be an array,
// each possibly parenthesized. It returns nil if e is not part of a
// variable's own memory (a pointer dereference, a slice or map element,
// a field through a pointer, a call's result).
func writtenVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			if v == nil {
				v, _ = info.Defs[x].(*types.Var)
			}
			return v
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			sel, ok := info.Selections[x]
			if !ok || sel.Kind() != types.FieldVal || sel.Indirect() {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			if !mayBeArray(info.TypeOf(x.X)) {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// readOnlyRoot returns the variable whose own memory the access
// expression e denotes: the variable itself, a field of it selected
// without going through a pointer, or an element of it if it is an
// array, each possibly parenthesized. Unlike writtenVar, it answers only
// when that is certain, as its answer may make an access local.
func readOnlyRoot(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			v, _ := info.ObjectOf(x).(*types.Var)
			return v
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			sel, ok := info.Selections[x]
			if !ok || sel.Kind() != types.FieldVal || sel.Indirect() {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			tv, ok := info.Types[x.X]
			if !ok || !tv.IsValue() {
				return nil
			}
			if _, ok := coreType(tv.Type).(*types.Array); !ok {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// mayBeArray reports whether a value of type t may be an array, so that
// indexing or slicing it addresses its own memory: t is an array, a type
// parameter whose type set may contain one, or unknown.
func mayBeArray(t types.Type) bool {
	if t == nil {
		return true
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		// Only a type set that surely holds no array is ruled out:
		// strings, slices, maps and pointers alone.
		iface, _ := tp.Constraint().Underlying().(*types.Interface)
		if iface == nil {
			return true
		}
		for i := 0; i < iface.NumEmbeddeds(); i++ {
			var terms []types.Type
			switch et := iface.EmbeddedType(i).(type) {
			case *types.Union:
				for j := 0; j < et.Len(); j++ {
					terms = append(terms, et.Term(j).Type())
				}
			default:
				terms = append(terms, et)
			}
			all := true
			for _, tt := range terms {
				switch tt.Underlying().(type) {
				case *types.Slice, *types.Map, *types.Pointer:
				case *types.Basic:
				default:
					all = false
				}
			}
			if all {
				// This embedded term set already excludes arrays, and
				// the type set is the intersection of them all.
				return false
			}
		}
		return true
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Pointer, *types.Basic:
		return false
	}
	return true
}

// pointerMethod reports whether the method obj has a pointer receiver.
func pointerMethod(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ptr := types.Unalias(sig.Recv().Type()).(*types.Pointer)
	return ptr
}
