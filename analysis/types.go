package analysis

import (
	"go/ast"
	"go/types"
)

// CoreType returns the underlying type of t or, if t is a type parameter,
// the underlying type that every type of its type set has, or nil if the
// type set holds types of different underlying types or nothing is known
// about it. A non-nil answer is certain: code may rely on it, as it
// relies on an ordinary type's underlying type. CoreType(nil) is nil.
func CoreType(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	// The type set is the intersection of the term lists, so a list
	// whose terms all have one underlying type fixes it for the set.
	for _, terms := range termLists(tp) {
		var core types.Type
		for _, term := range terms {
			u := term.Underlying()
			if _, iface := u.(*types.Interface); iface || core != nil && !types.Identical(core, u) {
				core = nil
				break
			}
			core = u
		}
		if core != nil {
			return core
		}
	}
	return nil
}

// MayBeArray reports whether a value of type t may be an array, so that
// indexing or slicing it addresses the value's own memory: t's underlying
// type is an array, t is a type parameter whose type set may hold an
// array type, or t is unknown (nil).
func MayBeArray(t types.Type) bool {
	if t == nil {
		return true
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		_, arr := t.Underlying().(*types.Array)
		return arr
	}
	// Only a term list that surely holds no array rules arrays out of
	// the type set, the intersection of the lists.
	for _, terms := range termLists(tp) {
		none := true
		for _, term := range terms {
			switch term.Underlying().(type) {
			case *types.Array, *types.Interface:
				none = false
			}
		}
		if none {
			return false
		}
	}
	return true
}

// termLists returns the term lists whose intersection is the type set of
// the type parameter tp: one for each union or type its constraint
// embeds, directly or through embedded interfaces. A term that is itself
// an interface stands for a type set that termLists does not resolve. No
// list means no restriction: every type (with the constraint's methods).
func termLists(tp *types.TypeParam) [][]types.Type {
	var lists [][]types.Type
	var visit func(iface *types.Interface, depth int)
	visit = func(iface *types.Interface, depth int) {
		for i := 0; i < iface.NumEmbeddeds(); i++ {
			switch e := iface.EmbeddedType(i).(type) {
			case *types.Union:
				terms := make([]types.Type, e.Len())
				for j := range terms {
					terms[j] = e.Term(j).Type()
				}
				lists = append(lists, terms)
			default:
				if inner, ok := e.Underlying().(*types.Interface); ok && depth < 16 {
					visit(inner, depth+1)
				} else {
					lists = append(lists, []types.Type{e})
				}
			}
		}
	}
	if iface, ok := tp.Constraint().Underlying().(*types.Interface); ok {
		visit(iface, 0)
	}
	return lists
}

// PointerMethod reports whether the method obj has a pointer receiver,
// so that calling it, or taking it as a method value, on an addressable
// operand that is not a pointer takes the operand's address.
func PointerMethod(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	_, ptr := types.Unalias(recv.Type()).(*types.Pointer)
	return ptr
}

// BuiltinName returns the name of the builtin function that fun denotes
// (unsafe's functions included), or "" if it denotes something else.
func BuiltinName(info *types.Info, fun ast.Expr) string {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return ""
	}
	if b, ok := info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// Global reports whether v is a package-level variable, of any package.
func Global(v *types.Var) bool {
	return !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}
