package instrument

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/dave/dst"
)

// Input and output synchronize goroutines below the code racegen
// instruments: a goroutine writes a file or a socket, another reads what
// it wrote, or an HTTP server runs a handler for a request a client sent.
// The runtime models all of it as one synchronization object, as go build
// -race does (see racegenrt.IORelease), and the rewriter brackets every
// call into an I/O package:
//
//	n, err := f.Read(b)
//
// becomes
//
//	racegenrt.IORelease()
//	n, err := racegenrt.IO2(f.Read(b))
//
// A call with no results is followed by racegenrt.IOAcquire(). Functions
// handed to an I/O package (HTTP handlers), and ServeHTTP methods, start
// with
//
//	racegenrt.IOAcquire()
//	defer racegenrt.IORelease()
//
// The model orders more than the program does, which can hide races but
// not invent them.
//
// Dependencies outside the standard library and outside the main module
// (Config.Module) are not instrumented either: a buffer pool in one
// synchronizes its Get and Put with a mutex or a sync.Pool racegen never
// sees. Calls into such packages, and the function literals passed to
// them, get the same treatment as I/O calls.

// ioPackages are the packages whose functions and methods do input or
// output, or run callbacks on behalf of a peer (net/http): net/... is
// included as a whole.
var ioPackages = map[string]bool{
	"os":           true,
	"os/exec":      true,
	"os/signal":    true,
	"net":          true,
	"io":           true,
	"io/ioutil":    true,
	"bufio":        true,
	"syscall":      true,
	"database/sql": true,
	"crypto/tls":   true,
}

// isIOPackage reports whether calls into the package path do I/O.
func isIOPackage(path string) bool {
	return ioPackages[path] || strings.HasPrefix(path, "net/")
}

// isStdPackage reports whether path is a standard-library package: its
// first element has no dot.
func isStdPackage(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// isUninstrumented reports whether path is a package racegen does not
// instrument and whose synchronization it therefore cannot see: neither
// in the standard library nor in the main module. With no main module
// configured every package is taken to be instrumented.
func (c *Config) isUninstrumented(path string) bool {
	if c.Module == "" || isStdPackage(path) || path == RuntimePath || strings.HasPrefix(path, RuntimePath+"/") {
		return false
	}
	return path != c.Module && !strings.HasPrefix(path, c.Module+"/")
}

// syncsThrough reports whether calls into the package path synchronize
// through the runtime's I/O object: path does I/O, or is a dependency
// that is not instrumented.
func (fr *fileRewriter) syncsThrough(path string) bool {
	return isIOPackage(path) || fr.cfg.isUninstrumented(path)
}

// ioState collects what the statement being rewritten needs around it.
type ioState struct {
	release bool // IORelease() before the statement
	acquire bool // IOAcquire() after it: an I/O call with no results
}

// ioFunc returns the signature of the function or method of an I/O
// package or an uninstrumented dependency that a calls, or nil if a
// calls something else, or a function of the package being rewritten. A
// method belongs to the package that declares it: a method of a
// dependency's type, or of a dependency's interface (also when promoted
// through a type or interface of the main module), is a call into the
// dependency.
func (fr *fileRewriter) ioFunc(a *ast.CallExpr) *types.Signature {
	fn, ok := fr.calleeObj(a.Fun).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg() == fr.pkg || !fr.syncsThrough(fn.Pkg().Path()) {
		return nil
	}
	if fr.replaceObj(fn) != "" {
		return nil // os.Exit: the runtime's replacement exits
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig
}

// ioCall brackets x, the rewritten call a of an I/O function with the
// signature sig, and the function literals passed to it.
func (fr *fileRewriter) ioCall(x *dst.CallExpr, a *ast.CallExpr, sig *types.Signature) dst.Expr {
	for _, arg := range x.Args {
		if lit, ok := unparen(arg).(*dst.FuncLit); ok {
			fr.ioCallback(lit.Body, lit)
		}
	}
	if fr.io == nil || fr.ioDirect == a {
		// At package level there is no statement to bracket; the callee
		// of go and defer runs later, where the rewriter cannot reach.
		return x
	}
	fr.io.release = true
	var wrap string
	switch sig.Results().Len() {
	case 0:
		fr.io.acquire = true
		return x
	case 1:
		wrap = "IO1"
	case 2:
		wrap = "IO2"
	case 3:
		wrap = "IO3"
	default:
		fr.io.acquire = true
		return x
	}
	n := fr.rtCall(wrap, x)
	moveDecs(n, x)
	return n
}

// ioConversion brackets the function literal in a conversion to a
// function type of an I/O package or an uninstrumented dependency, as in
// http.HandlerFunc(func...).
func (fr *fileRewriter) ioConversion(x *dst.CallExpr, a *ast.CallExpr) {
	named, ok := fr.typeOf(a).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !fr.syncsThrough(named.Obj().Pkg().Path()) {
		return
	}
	if lit, ok := unparen(x.Args[0]).(*dst.FuncLit); ok {
		fr.ioCallback(lit.Body, lit)
	}
}

// ioCallback makes body, of a function that an I/O package calls, start
// with IOAcquire() and a deferred IORelease().
func (fr *fileRewriter) ioCallback(body *dst.BlockStmt, from dst.Node) {
	if body == nil {
		return
	}
	pro := []dst.Stmt{
		exprStmt(fr.rtCall("IOAcquire")),
		&dst.DeferStmt{Call: fr.rtCall("IORelease")},
	}
	for _, s := range pro {
		fr.from(s, from)
	}
	body.List = append(pro, body.List...)
}

// isServeHTTP reports whether d is a method ServeHTTP(http.ResponseWriter,
// *http.Request), which a server calls for requests from a peer.
func (fr *fileRewriter) isServeHTTP(d *dst.FuncDecl) bool {
	if d.Recv == nil || d.Name.Name != "ServeHTTP" {
		return false
	}
	ad, ok := fr.dec.Ast.Nodes[d].(*ast.FuncDecl)
	if !ok {
		return false
	}
	fn, ok := fr.info.Defs[ad.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 2 || sig.Results().Len() != 0 {
		return false
	}
	isHTTP := func(t types.Type, name string) bool {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == name
	}
	return isHTTP(sig.Params().At(0).Type(), "ResponseWriter") && isHTTP(sig.Params().At(1).Type(), "Request")
}

// collectIO runs rewrite with a fresh record of the I/O calls it rewrites
// and returns that record, restoring the enclosing one.
func (fr *fileRewriter) collectIO(rewrite func()) *ioState {
	saved := fr.io
	fr.io = &ioState{}
	rewrite()
	st := fr.io
	fr.io = saved
	return st
}

// ioStmt rewrites the statement s with rewrite and brackets it as the I/O
// calls in it require.
func (fr *fileRewriter) ioStmt(s dst.Stmt, rewrite func(dst.Stmt) []dst.Stmt) []dst.Stmt {
	var out []dst.Stmt
	st := fr.collectIO(func() { out = rewrite(s) })
	if st.release {
		rel := fr.from(exprStmt(fr.rtCall("IORelease")), s)
		out = append([]dst.Stmt{rel}, out...)
	}
	if st.acquire {
		out = append(out, fr.from(exprStmt(fr.rtCall("IOAcquire")), s))
	}
	return out
}

// ioExpr rewrites the condition of a for loop, which runs on every
// iteration: if it calls into an I/O package, the release goes inside it,
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
		Body: block(exprStmt(fr.rtCall("IORelease")), &dst.ReturnStmt{Results: []dst.Expr{e}}),
	}
	return &dst.CallExpr{Fun: lit}
}

// ioPost rewrites the post statement of a for loop: if it calls into an
// I/O package, it becomes func() { racegenrt.IORelease(); post }().
func (fr *fileRewriter) ioPost(s dst.Stmt) dst.Stmt {
	if s == nil {
		return nil
	}
	st := fr.collectIO(func() { s = fr.simpleStmt(s) })
	if !st.release && !st.acquire {
		return s
	}
	list := []dst.Stmt{exprStmt(fr.rtCall("IORelease")), s}
	if st.acquire {
		list = append(list, exprStmt(fr.rtCall("IOAcquire")))
	}
	lit := &dst.FuncLit{Type: &dst.FuncType{Func: true, Params: &dst.FieldList{}}, Body: block(list...)}
	return exprStmt(&dst.CallExpr{Fun: lit})
}
