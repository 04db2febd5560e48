package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A function of the package touches no memory if its body computes on
// its parameters, results and local variables alone, none of which can
// be anywhere but in its own frame: it takes no address (no &, no
// slicing, no method call, which may take its receiver's), has no
// function literal that could capture a variable, reads no package-level
// variable, indexes nothing, follows no pointer, and calls nothing but
// builtins that compute on values (len, cap, min, max, complex, real,
// imag), conversions between basic types, and functions of the package
// that touch no memory themselves. A hash's mixing step is one:
//
//	func mix(v uint64) uint64 { v ^= v >> 29; return v * 0xbf58476d1ce4e5b9 }
//
// The instrumenter gives such a function no hook at all, so a call of it
// runs no instrumented code; Leaf relies on that.

// findNoMemory sets c.noMemory: the functions among bodies that touch no
// memory, by the greatest fixed point over the calls among them
// (closeOver), as fixedPoint does for its levels.
func (c *Computations) findNoMemory(bodies map[*types.Func]*ast.BlockStmt) {
	callees := make(map[*types.Func][]*types.Func)
	for fn, body := range bodies {
		var calls []*types.Func
		if c.touchesNoMemory(body, &calls) {
			callees[fn] = calls
		}
	}
	c.noMemory = make(map[*types.Func]bool, len(callees))
	closeOver(c.noMemory, callees)
}

// touchesNoMemory reports whether n, a function's body or a part of it,
// touches no memory if the functions of the package it calls, which it
// appends to calls, touch none either.
func (c *Computations) touchesNoMemory(n ast.Node, calls *[]*types.Func) bool {
	ok := true
	ast.Inspect(n, func(n ast.Node) bool {
		if !ok || n == nil {
			return false
		}
		if e, isExpr := n.(ast.Expr); isExpr {
			if tv, known := c.info.Types[e]; known && (tv.IsType() || tv.Value != nil) {
				return false // a type, or a constant: no memory
			}
		}
		switch n := n.(type) {
		case *ast.BlockStmt, *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt,
			*ast.ReturnStmt, *ast.IfStmt, *ast.ForStmt, *ast.SwitchStmt,
			*ast.CaseClause, *ast.BranchStmt, *ast.LabeledStmt, *ast.EmptyStmt,
			*ast.DeclStmt, *ast.GenDecl, *ast.ValueSpec,
			*ast.BasicLit, *ast.ParenExpr:
		case *ast.RangeStmt:
			// Over an integer only: a range over anything else reads
			// what it ranges over, receives or calls.
			t, _ := CoreType(c.info.TypeOf(n.X)).(*types.Basic)
			ok = t != nil && t.Info()&types.IsInteger != 0
		case *ast.Ident:
			ok = c.frameLocal(n)
		case *ast.UnaryExpr:
			ok = n.Op != token.AND && n.Op != token.ARROW
		case *ast.BinaryExpr:
			// Comparing interfaces may compare what they point to.
			ok = !types.IsInterface(c.info.TypeOf(n.X)) && !types.IsInterface(c.info.TypeOf(n.Y))
		case *ast.SelectorExpr:
			// A field of a struct held in a local variable, not reached
			// through a pointer.
			sel, found := c.info.Selections[n]
			ok = found && sel.Kind() == types.FieldVal && !sel.Indirect() && c.touchesNoMemory(n.X, calls)
			return false // n.Sel names the field, judged here
		case *ast.CallExpr:
			// The function called is judged here, its arguments as any
			// expression.
			ok = c.callTouchesNoMemory(n, calls)
			for _, a := range n.Args {
				ok = ok && c.touchesNoMemory(a, calls)
			}
			return false
		default:
			// Index and slice expressions, pointers followed, composite
			// literals, function literals, type assertions and switches,
			// go, defer, select and send statements.
			ok = false
		}
		return ok
	})
	return ok
}

// frameLocal reports whether the identifier id, met in an expression of
// a function's body that touchesNoMemory judges, names something that is
// no memory outside the function's frame: one of its parameters,
// results or local variables, a constant, a type, a label, the blank
// identifier or nil.
func (c *Computations) frameLocal(id *ast.Ident) bool {
	obj := c.info.Uses[id]
	if obj == nil {
		obj = c.info.Defs[id]
	}
	switch obj := obj.(type) {
	case nil, *types.Const, *types.TypeName, *types.Label, *types.Nil:
		return true
	case *types.Var:
		// A package-level variable's scope is its package's; a
		// field's is nil.
		return !obj.IsField() && obj.Parent() != nil && obj.Pkg() != nil && obj.Parent() != obj.Pkg().Scope()
	}
	return false
}

// callTouchesNoMemory reports whether the call e, its arguments aside,
// touches no memory: a conversion between basic types other than
// unsafe.Pointer, a builtin that computes on values, or a static call
// of a function of the package (no method), which it appends to calls.
func (c *Computations) callTouchesNoMemory(e *ast.CallExpr, calls *[]*types.Func) bool {
	conv, obj := c.callee(e)
	if conv {
		return len(e.Args) == 1 && basicValue(c.info.TypeOf(e)) && basicValue(c.info.TypeOf(e.Args[0]))
	}
	switch obj := obj.(type) {
	case *types.Builtin:
		switch obj.Name() {
		case "len", "cap", "min", "max", "complex", "real", "imag":
			return true
		}
	case *types.Func:
		fn := obj.Origin()
		if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
			return false
		}
		if _, known := c.funcs[computing][fn]; known {
			*calls = append(*calls, fn)
			return true
		}
	}
	return false
}

// basicValue reports whether t's core type is a basic type other than
// unsafe.Pointer: a number, a boolean or a string.
func basicValue(t types.Type) bool {
	b, ok := CoreType(t).(*types.Basic)
	return ok && b.Kind() != types.UnsafePointer && b.Kind() != types.UntypedNil && b.Kind() != types.Invalid
}
