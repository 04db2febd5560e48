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
// A body may also write back the element it reads, b[i] = e, in every
// iteration (a statement of its own, with no continue anywhere in the
// body), as a loop that converts bytes in place does:
//
//	for i, c := range b {
//		b[i] = toLowerTable[c]
//	}
//
// if b is a local variable that nothing but its own statements reach and
// that the body, like i, does not assign: the loop then writes every
// element of the slice it ranges over, and racegenrt.SliceW records those
// writes before the loop too, each with the site of its statement.
//
// wholeRange reports whether the range loop a is over a slice, in a
// dynamic build (static ones have no range hooks), and has such a body,
// and returns the element writes it makes. It is conservative: any
// statement or expression it does not know to be safe disqualifies it.
func (fr *fileRewriter) wholeRange(a *ast.RangeStmt) (writes []*ast.IndexExpr, ok bool) {
	if _, slice := under(fr.typeOf(a.X)).(*types.Slice); !slice || !fr.containerHooks() {
		return nil, false
	}
	writes = fr.elementWrites(a)
	written := make(map[*ast.IndexExpr]bool, len(writes))
	for _, w := range writes {
		written[w] = true
	}
	ok = true
	ast.Inspect(a.Body, func(n ast.Node) bool {
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
			ok = n.Tok == token.CONTINUE && n.Label == nil && len(writes) == 0
		case *ast.IndexExpr:
			ok = written[n] || fr.tableLookup(n)
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
			// Other index expressions, slice expressions,
			// dereferences, type assertions, closures, other
			// statements: they can panic, leave the loop or do more
			// than compute.
			ok = false
		}
		return ok
	})
	return writes, ok
}

// elementWrites returns the statements b[i] = e of the body of the range
// loop a over b, with i its key, that wholeRange may let through: b and
// i are local variables that only their statements reach and that the
// body does not assign, and the element is of a basic type. Only the
// statements of the body itself count, which run in every iteration.
func (fr *fileRewriter) elementWrites(a *ast.RangeStmt) []*ast.IndexExpr {
	x, ok1 := ast.Unparen(a.X).(*ast.Ident)
	key, ok2 := a.Key.(*ast.Ident)
	if !ok1 || !ok2 || a.Tok != token.DEFINE {
		return nil
	}
	xv, ok1 := fr.info.Uses[x].(*types.Var)
	kv, ok2 := fr.info.Defs[key].(*types.Var)
	if !ok1 || !ok2 || !fr.vars.Unaliased(xv) || !fr.vars.Unaliased(kv) {
		return nil
	}
	sets := assignedIn(fr.info, a.Body)
	if sets[xv] || sets[kv] {
		return nil
	}
	var writes []*ast.IndexExpr
	for _, st := range a.Body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		ix, ok := as.Lhs[0].(*ast.IndexExpr)
		if !ok {
			continue
		}
		id, ok1 := ix.X.(*ast.Ident)
		i, ok2 := ix.Index.(*ast.Ident)
		if !ok1 || !ok2 || fr.info.Uses[id] != xv || fr.info.Uses[i] != kv {
			continue
		}
		if _, basic := under(fr.typeOf(ix)).(*types.Basic); basic {
			writes = append(writes, ix)
		}
	}
	return writes
}

// tableLookup reports whether e indexes a constant string of at least
// 256 bytes with a byte, as parsers look characters up in tables
// (toLowerTable[c]): it cannot panic, and reads no variable.
func (fr *fileRewriter) tableLookup(e *ast.IndexExpr) bool {
	tv, ok := fr.info.Types[e.X]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String || len(constant.StringVal(tv.Value)) < 256 {
		return false
	}
	b, ok := under(fr.typeOf(e.Index)).(*types.Basic)
	return ok && b.Kind() == types.Uint8
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
