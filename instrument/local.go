package instrument

import (
	"go/ast"
	"go/types"

	"github.com/racegen/racegen/analysis"
)

// Whether memory may be reached by another goroutine is decided in
// package analysis, not here. The instrumenter asks it twice: the
// syntax of the package (analysis.Variables, always) tells which
// accesses are to variables that only the statements naming them reach,
// which are not access sites at all; then Config.Local and
// Config.LocalTarget (the escape analysis, analysis.Locality, when the
// caller supplies it) tell which of the remaining access sites need no
// hook. This file is the instrumenter's side of the first question.

// isShared reports whether a denotes memory that a hook can record (it
// is addressable) and that another goroutine may reach as far as the
// syntax tells, and whether that memory belongs to a package-level
// variable. It is false for every access to an unaliased local variable
// (analysis.Variables.Unaliased), or to a field or array element of one.
func (fr *fileRewriter) isShared(a ast.Expr) (shared, global bool) {
	if !fr.addressable(a) {
		return false, false
	}
	v := fr.vars.Root(a)
	if v == nil {
		return true, false // a pointer's target, a slice element, ...
	}
	return !fr.vars.Unaliased(v), analysis.Global(v)
}

// addressable reports whether a denotes a variable (in the spec's sense),
// whose address a hook can take.
func (fr *fileRewriter) addressable(a ast.Expr) bool {
	if id, ok := a.(*ast.Ident); ok {
		// go/types records no operand for a variable that := declares
		// or redeclares (or a range clause declares).
		v, ok := fr.info.ObjectOf(id).(*types.Var)
		return ok && !v.IsField()
	}
	tv, ok := fr.info.Types[a]
	return ok && tv.Addressable()
}

// isArray reports whether indexing or slicing a value of type t may
// address the value's own memory (analysis.MayBeArray), so that the
// value is not read as a whole there.
func isArray(t types.Type) bool {
	return analysis.MayBeArray(t)
}

// under returns the core type of t (analysis.CoreType): its underlying
// type, or the one underlying type of a type parameter's type set, or nil.
func under(t types.Type) types.Type {
	return analysis.CoreType(t)
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
