package instrument

import "github.com/dave/dst"

// lockStmt writes out a statement s that calls a lock's wrapper, such as
// racegenrt.Lock(&mu), the rewrite of mu.Lock(), as the method itself and
// the detector's half (see split):
//
//	{
//		racegen_m1 := &mu
//		racegen_m1.Lock()
//		if racegenrt.SyncHot() {
//			racegenrt.Locked(racegen_m1, &racegenctx)
//		}
//	}
//
// With the gate closed, at rate 0 and between Pacer's sampling periods,
// the method then compiles in the caller as in the original, inlined
// where the compiler inlines it, and the detector costs a load and a
// branch instead of a call of the wrapper around the method. The
// receiver is evaluated once, as in the wrapper's call. It returns nil
// if s is not such a statement; other calls of the wrappers (defer
// mu.Unlock(), method values, sync.Locker) keep them.
func (fr *fileRewriter) lockStmt(s *dst.ExprStmt) dst.Stmt {
	call, ok := s.X.(*dst.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	name, ok := fr.rtCallee(call)
	if !ok {
		return nil
	}
	h := hookTable[name]
	if h == nil || h.split == nil {
		return nil
	}
	m := fr.temp("m")
	method := exprStmt(&dst.CallExpr{Fun: &dst.SelectorExpr{X: ident(m), Sel: ident(h.split.method)}})
	half := &dst.IfStmt{
		Cond: fr.rtCall(hookSyncHot),
		Body: block(exprStmt(fr.rtCall(h.split.half, ident(m), fr.syncCtxArg()))),
	}
	list := []dst.Stmt{define([]string{m}, call.Args[0]), half, method}
	if h.split.after {
		list[1], list[2] = method, half
	}
	fr.fromAll(list, s)
	b := fr.from(block(list...), s)
	moveDecs(b, s)
	return b
}

// deferredUnlock rewrites the call c of a deferred unlock's wrapper,
// racegenrt.Unlock(&mu) from defer mu.Unlock(), into its deferred form,
// racegenrt.UnlockIn(&mu, &racegenctx), whose half uses the function's
// Ctx as a lock statement's does. Other calls are left as they are, and so
// are deferred unlocks in static builds and outside functions.
func (fr *fileRewriter) deferredUnlock(c *dst.CallExpr) {
	if fr.cfg.static() || fr.fn == nil || len(c.Args) != 1 {
		return
	}
	name, ok := fr.rtCallee(c)
	if !ok {
		return
	}
	h := hookTable[name]
	if h == nil || h.split == nil || h.split.deferred == nil {
		return
	}
	c.Fun = fr.rt(h.split.deferred)
	c.Args = append(c.Args, fr.ctxArg())
}
