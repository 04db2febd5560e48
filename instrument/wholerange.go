package instrument

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// A range loop over a slice reads each element as it goes, which the
// rewrite records with a hook per iteration. When the body can neither
// leave the loop early nor panic, every element is read, in a loop that
// does not synchronize: then one hook for the whole slice before the loop,
// racegenrt.SliceR, records exactly the same reads in the same epoch, at a
// small fraction of the cost. Such bodies are common in the inner loops
// of hashing, checksums and reductions:
//
//	for _, c := range b {
//		h ^= uint64(c)
//		h *= prime
//	}
//
// readsAll reports whether body is such a body. It is conservative: any
// statement or expression it does not know to be safe disqualifies it.
func (fr *fileRewriter) readsAll(body *ast.BlockStmt) bool {
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt, *ast.IfStmt, *ast.ExprStmt, *ast.IncDecStmt, *ast.EmptyStmt,
			*ast.DeclStmt, *ast.GenDecl, *ast.ValueSpec,
			*ast.Ident, *ast.BasicLit, *ast.ParenExpr:
		case *ast.AssignStmt:
			switch n.Tok {
			case token.QUO_ASSIGN, token.REM_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN:
				ok = fr.safeDivisorOrShift(n.Rhs[0])
			}
		case *ast.BranchStmt:
			ok = n.Tok == token.CONTINUE && n.Label == nil
		case *ast.UnaryExpr:
			ok = n.Op != token.ARROW
		case *ast.BinaryExpr:
			switch n.Op {
			case token.QUO, token.REM, token.SHL, token.SHR:
				ok = fr.safeDivisorOrShift(n.Y)
			}
		case *ast.SelectorExpr:
			// A field of a value, not through a pointer, which could be
			// nil (Indirect reports any, x's own included); or a
			// qualified identifier.
			if sel, isSel := fr.info.Selections[n]; isSel {
				ok = sel.Kind() == types.FieldVal && !sel.Indirect()
			} else {
				_, ok = fr.info.Uses[n.Sel].(*types.Const)
			}
		case *ast.CallExpr:
			ok = fr.safeCall(n)
		default:
			// Index and slice expressions, dereferences, type
			// assertions, closures, other statements: they can panic,
			// leave the loop or do more than compute.
			ok = false
		}
		return ok
	})
	return ok
}

// safeDivisorOrShift reports whether e, a divisor or shift count, is a
// constant that cannot make the operation panic.
func (fr *fileRewriter) safeDivisorOrShift(e ast.Expr) bool {
	tv, ok := fr.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int:
		return constant.Sign(tv.Value) > 0
	case constant.Float:
		return true // floating-point division does not panic
	}
	return false
}

// safeCall reports whether c is a conversion to a basic type or a call of
// a builtin that cannot panic.
func (fr *fileRewriter) safeCall(c *ast.CallExpr) bool {
	conv, builtin := fr.callee(c)
	if conv != nil {
		_, basic := conv.Underlying().(*types.Basic)
		return basic
	}
	switch builtin {
	case "len", "cap", "min", "max", "real", "imag", "complex":
		return true
	}
	return false
}
