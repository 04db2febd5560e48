package instrument

import (
	"go/ast"
	"go/types"

	"github.com/dave/dst"
)

// Finalizers and cleanups run on goroutines of the Go runtime's, which no
// go statement started. The rewriter wraps the function so that the
// detector knows what it is ordered after (see the runtime's Finalizer
// and Cleanup;
// time.AfterFunc, the other function the runtime starts, is replaced by
// a helper: see timers.go):
//
//	runtime.SetFinalizer(x, f)      runtime.SetFinalizer(x, racegenrt.Finalizer(f))
//	runtime.AddCleanup(p, f, arg)   runtime.AddCleanup(p, racegenrt.Cleanup(f), arg)
//
// A finalizer is wrapped only when its static type is a function of one
// parameter and at most one result, which are the ones SetFinalizer
// accepts and the generic wrappers can take; given as an interface
// value, it is left as it is.

// callbackArg returns the index of the callback argument of a call of
// fn, and the hook that wraps it, or -1.
func callbackArg(fn *types.Func) (int, *hook) {
	if fn.Pkg() == nil {
		return -1, nil
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "runtime.SetFinalizer":
		return 1, hookFinalizer
	case "runtime.AddCleanup":
		return 1, hookCleanup
	}
	return -1, nil
}

// wrapCallback wraps the callback argument of x, the rewritten call a, if
// a hands one to the Go runtime.
func (fr *fileRewriter) wrapCallback(x *dst.CallExpr, a *ast.CallExpr) {
	fn, ok := fr.calleeObj(a.Fun).(*types.Func)
	if !ok || a.Ellipsis.IsValid() {
		return
	}
	i, wrap := callbackArg(fn)
	if i < 0 || i >= len(a.Args) {
		return
	}
	sig, ok := under(fr.typeOf(a.Args[i])).(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Variadic() || sig.Results().Len() > 1 {
		return // nil, an interface value, or a finalizer SetFinalizer refuses
	}
	if sig.Results().Len() == 1 {
		if wrap != hookFinalizer {
			return // a cleanup has no result
		}
		wrap = hookFinalizerResult
	}
	n := fr.rtCall(wrap, x.Args[i])
	moveDecs(n, x.Args[i])
	x.Args[i] = n
}
