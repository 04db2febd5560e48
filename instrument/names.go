package instrument

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/dave/dst"
)

// fileNames returns every identifier that appears in f. Names the
// rewriter invents avoid them all, so that they can neither shadow nor be
// shadowed by a user's declaration.
func fileNames(f *ast.File) map[string]bool {
	names := make(map[string]bool)
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names[id.Name] = true
		}
		return true
	})
	return names
}

// freshName returns base, or base followed by a number, whichever is not
// used in the file yet, and reserves it.
func (fr *fileRewriter) freshName(base string) string {
	name := base
	for i := 1; fr.names[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	fr.names[name] = true
	return name
}

// temp returns a new name for a temporary of the rewriter.
func (fr *fileRewriter) temp(what string) string {
	fr.ntemp++
	return fr.freshName(fmt.Sprintf("racegen_%s%d", what, fr.ntemp))
}

// rtSelector returns the expression racegenrt.name, which names a
// declaration of the runtime, and notes that the file uses the runtime.
func (fr *fileRewriter) rtSelector(name string) dst.Expr {
	fr.rtUsed = true
	return &dst.SelectorExpr{X: dst.NewIdent(fr.rtName), Sel: dst.NewIdent(name)}
}

// rtCallee returns the name of the runtime's function that c calls, if
// it is one.
func (fr *fileRewriter) rtCallee(c *dst.CallExpr) (string, bool) {
	sel, ok := c.Fun.(*dst.SelectorExpr)
	if !ok {
		return "", false
	}
	x, ok := sel.X.(*dst.Ident)
	if !ok || x.Name != fr.rtName || x.Path != "" {
		return "", false
	}
	return sel.Sel.Name, true
}

// rt returns the expression racegenrt.H that names the hook h.
func (fr *fileRewriter) rt(h *hook) dst.Expr { return fr.rtSelector(h.name) }

// rtType returns the expression racegenrt.T that names the runtime's
// type T, one of the types hooks.go declares.
func (fr *fileRewriter) rtType(name string) dst.Expr { return fr.rtSelector(name) }

// rtCall returns the call racegenrt.H(args...) of the hook h. Calling a
// hook with arguments it does not declare is a bug of the rewriter.
func (fr *fileRewriter) rtCall(h *hook, args ...dst.Expr) *dst.CallExpr {
	if !h.accepts(args) {
		panic(fmt.Sprintf("hook %s called with %d arguments", h, len(args)))
	}
	return &dst.CallExpr{Fun: fr.rt(h), Args: args}
}

func ident(name string) *dst.Ident { return dst.NewIdent(name) }

func addrOf(e dst.Expr) dst.Expr { return &dst.UnaryExpr{Op: token.AND, X: e} }

func deref(e dst.Expr) dst.Expr { return &dst.StarExpr{X: e} }

func exprStmt(e dst.Expr) dst.Stmt { return &dst.ExprStmt{X: e} }

// define returns the statement lhs... := rhs....
func define(lhs []string, rhs ...dst.Expr) dst.Stmt {
	s := &dst.AssignStmt{Tok: token.DEFINE, Rhs: rhs}
	for _, n := range lhs {
		s.Lhs = append(s.Lhs, ident(n))
	}
	return s
}

func siteLit(id uint64) dst.Expr {
	return &dst.BasicLit{Kind: token.INT, Value: fmt.Sprintf("%#x", id)}
}

// moveDecs moves the decorations (comments and line breaks around the
// node) of from to to, which replaces from in the tree, so that they stay
// outside of the new node rather than inside its first operand.
func moveDecs(to, from dst.Node) {
	t, f := to.Decorations(), from.Decorations()
	*t = *f
	*f = dst.NodeDecs{}
}

// block returns a block of stmts laid out one per line.
func block(stmts ...dst.Stmt) *dst.BlockStmt {
	for _, s := range stmts {
		d := s.Decorations()
		if d.Before == dst.None {
			d.Before = dst.NewLine
		}
		if d.After == dst.None {
			d.After = dst.NewLine
		}
	}
	return &dst.BlockStmt{List: stmts}
}
