package instrument

import (
	"go/ast"

	"github.com/dave/dst"
)

// This file drops the hooks of accesses that an earlier access of the
// same call already records (analysis.Variables.Redundant decides which).
// The rewriter hooks every access as it meets it and notes the hook
// here; once a function declaration is rewritten, the hooks of its
// redundant accesses are undone in place: *racegenrt.R(&x, site, &ctx)
// becomes *&x, which the compiler reads as x. Only dynamic builds do
// this: a static build's hooks are sampled sites, each of which must
// stay.

// hookedAccess is the hook, or hooks, that the rewriter gave one access
// expression.
type hookedAccess struct {
	write bool
	hooks []*dst.StarExpr
	mixed bool // hooked both as a read and as a write: left alone
}

// noteHook records that n, a hook call dereferenced, records the access a
// of the function declaration being rewritten, if hooks are noted there.
func (fr *fileRewriter) noteHook(a ast.Expr, n dst.Expr, write bool) {
	star, ok := n.(*dst.StarExpr)
	if !ok || fr.hooked == nil {
		return
	}
	h := fr.hooked[a]
	if h == nil {
		h = &hookedAccess{write: write}
		fr.hooked[a] = h
	}
	h.mixed = h.mixed || h.write != write
	h.hooks = append(h.hooks, star)
}

// dropRedundant undoes the hooks of the redundant accesses of the
// function declaration d, whose body the rewriter has just rewritten with
// its hooks noted.
func (fr *fileRewriter) dropRedundant(d *ast.FuncDecl) {
	hooked := fr.hooked
	if d == nil || len(hooked) < 2 {
		return
	}
	accesses := make(map[ast.Expr]bool, len(hooked))
	for a, h := range hooked {
		if !h.mixed {
			accesses[a] = h.write
		}
	}
	for a := range fr.vars.Redundant(d.Body, accesses) {
		for _, star := range hooked[a].hooks {
			call, ok := star.X.(*dst.CallExpr)
			if !ok || len(call.Args) == 0 {
				continue
			}
			star.X = call.Args[0]
		}
		fr.redundant++
	}
}
