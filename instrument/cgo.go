package instrument

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/dave/dst"
)

// Calls into C synchronize through memory racegen never sees: C code
// can hand data from one goroutine's call to another's. As go build -race
// does (racecgosync in the Go runtime), the runtime models all of it as
// one synchronization object (racegenrt.IORelease and IOAcquire), and the
// rewriter brackets every call of a cgo function:
//
//	n := C.read(fd, p, size)
//
// which cgo translates into a call of _Cfunc_read, becomes
//
//	racegenrt.IORelease()
//	n := racegenrt.IO1(_Cfunc_read(fd, p, size))
//
// A call with no results is followed by racegenrt.IOAcquire(). Go
// functions that C calls (marked //export) start with
//
//	racegenrt.IOAcquire()
//	defer racegenrt.IORelease()
//
// Every other call is instrumented on both sides, the standard library
// and dependencies included, so it needs no such model: the model orders
// more than the program does, which would hide races.

// ioState collects what the statement being rewritten needs around it.
type ioState struct {
	release bool // IORelease() before the statement
	acquire bool // IOAcquire() after it: a call with no results
}

// ioFunc returns the signature of the cgo function that a calls, or nil
// if a calls something else. cgo declares the functions a package calls
// through C.name, as _Cfunc_name, in the package's _cgo_gotypes.go.
func (fr *fileRewriter) ioFunc(a *ast.CallExpr) *types.Signature {
	fn, ok := fr.calleeObj(a.Fun).(*types.Func)
	if !ok || fn.Pkg() != fr.pkg || !strings.HasPrefix(fn.Name(), "_Cfunc_") {
		return nil
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig
}

// ioCall brackets x, the rewritten call a of a cgo function with the
// signature sig.
func (fr *fileRewriter) ioCall(x *dst.CallExpr, a *ast.CallExpr, sig *types.Signature) dst.Expr {
	if fr.io == nil || fr.ioDirect == a {
		// At package level there is no statement to bracket; the callee
		// of go and defer runs later, where the rewriter cannot reach.
		return x
	}
	fr.io.release = true
	var wrap *hook
	switch sig.Results().Len() {
	case 0:
		fr.io.acquire = true
		return x
	case 1:
		wrap = hookIO1
	case 2:
		wrap = hookIO2
	case 3:
		wrap = hookIO3
	default:
		fr.io.acquire = true
		return x
	}
	n := fr.rtCall(wrap, x)
	moveDecs(n, x)
	return n
}

// ioCallback makes body, of a function that C calls, start with
// IOAcquire() and a deferred IORelease().
func (fr *fileRewriter) ioCallback(body *dst.BlockStmt, from dst.Node) {
	if body == nil {
		return
	}
	pro := []dst.Stmt{
		exprStmt(fr.rtCall(hookIOAcquire)),
		&dst.DeferStmt{Call: fr.rtCall(hookIORelease)},
	}
	for _, s := range pro {
		fr.from(s, from)
	}
	body.List = append(pro, body.List...)
}

// collectIO runs rewrite with a fresh record of the cgo calls it rewrites
// and returns that record, restoring the enclosing one.
func (fr *fileRewriter) collectIO(rewrite func()) *ioState {
	saved := fr.io
	fr.io = &ioState{}
	rewrite()
	st := fr.io
	fr.io = saved
	return st
}

// ioStmt rewrites the statement s with rewrite and brackets it as the cgo
// calls in it require.
func (fr *fileRewriter) ioStmt(s dst.Stmt, rewrite func(dst.Stmt) []dst.Stmt) []dst.Stmt {
	var out []dst.Stmt
	st := fr.collectIO(func() { out = rewrite(s) })
	if st.release {
		rel := fr.from(exprStmt(fr.rtCall(hookIORelease)), s)
		out = append([]dst.Stmt{rel}, out...)
	}
	if st.acquire {
		out = append(out, fr.from(exprStmt(fr.rtCall(hookIOAcquire)), s))
	}
	return out
}

// ioExpr rewrites the condition of a for loop, which runs on every
// iteration: if it calls C, the release goes inside it,
// as func() bool { racegenrt.IORelease(); return cond }().
func (fr *fileRewriter) ioExpr(e dst.Expr) dst.Expr {
	if e == nil {
		return nil
	}
	st := fr.collectIO(func() { e = fr.rvalue(e) })
	if !st.release {
		return e
	}
	lit := &dst.FuncLit{
		Type: &dst.FuncType{Func: true, Params: &dst.FieldList{},
			Results: &dst.FieldList{List: []*dst.Field{{Type: ident("bool")}}}},
		Body: block(exprStmt(fr.rtCall(hookIORelease)), &dst.ReturnStmt{Results: []dst.Expr{e}}),
	}
	return &dst.CallExpr{Fun: lit}
}

// ioPost rewrites the post statement of a for loop: if it calls into an
// C function, it becomes func() { racegenrt.IORelease(); post }().
func (fr *fileRewriter) ioPost(s dst.Stmt) dst.Stmt {
	if s == nil {
		return nil
	}
	st := fr.collectIO(func() { s = fr.simpleStmt(s) })
	if !st.release && !st.acquire {
		return s
	}
	list := []dst.Stmt{exprStmt(fr.rtCall(hookIORelease)), s}
	if st.acquire {
		list = append(list, exprStmt(fr.rtCall(hookIOAcquire)))
	}
	lit := &dst.FuncLit{Type: &dst.FuncType{Func: true, Params: &dst.FieldList{}}, Body: block(list...)}
	return exprStmt(&dst.CallExpr{Fun: lit})
}
