package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"
	"github.com/racegen/racegen/analysis"
)

// Channel operations become the runtime's wrappers (Send, Recv, Recv2,
// Close). As in go build -race, a send reads the channel object and a
// close writes it, so Send, Close and ChanPreSend take a site. A select and a range over a channel keep their shape, so that
// the runtime's Chan handles bracket each communication: the hook before
// the operation runs before the select (for every case) or before each
// receive of the range, and the hook after it first thing in the chosen
// case or the loop body.

// chanElem returns the element type of the channel ch, or nil if ch is not
// a channel with a known core type. A channel whose type mentions type
// parameters (chan *Item[V] in a method of a generic type, or a type
// parameter whose core type is a channel) is hooked like any other: its
// operations are the edges that order what the goroutines on either side
// do, and without them every handoff through it reads as a race.
func (fr *fileRewriter) chanElem(ch ast.Expr) types.Type {
	c, ok := under(fr.typeOf(ch)).(*types.Chan)
	if !ok {
		return nil
	}
	return c.Elem()
}

// sendsDirectly reports whether racegenrt.Send(ch, v) infers its type
// argument from ch alone: v is untyped or has the element type.
func (fr *fileRewriter) sendsDirectly(ch, v ast.Expr) bool {
	elem := fr.chanElem(ch)
	if elem == nil {
		return false
	}
	tv := fr.info.Types[v]
	if tv.IsNil() {
		return true
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return tv.Value != nil
	}
	return types.Identical(tv.Type, elem)
}

// send rewrites the statement ch <- v.
func (fr *fileRewriter) send(s *dst.SendStmt) dst.Stmt {
	a, ok := fr.dec.Ast.Nodes[s].(*ast.SendStmt)
	if !ok {
		return s
	}
	if fr.sendsDirectly(a.Chan, a.Value) {
		return fr.sendSimple(s)
	}
	s.Chan = fr.rvalue(s.Chan)
	s.Value = fr.rvalue(s.Value)
	if fr.chanElem(a.Chan) == nil {
		return s
	}
	// { c, v := ch, v; h := racegenrt.ChanPreSend(racegenrt.ChanOf(c), site, &ctx); c <- v; h.PostSend() }
	c, v, h := fr.temp("ch"), fr.temp("v"), fr.temp("h")
	b := block(
		define([]string{c, v}, s.Chan, s.Value),
		define([]string{h}, fr.rtCall(hookChanPreSend, fr.rtCall(hookChanOf, ident(c)), siteLit(fr.newSite(a, false)), fr.syncCtxArg())),
		&dst.SendStmt{Chan: ident(c), Value: ident(v)},
		postCall(h, hookChanPreSend),
	)
	moveDecs(b, s)
	return fr.from(b, s)
}

// sendSimple rewrites ch <- v to racegenrt.Send(ch, v) where that type
// checks, and otherwise only rewrites its operands.
func (fr *fileRewriter) sendSimple(s *dst.SendStmt) dst.Stmt {
	a, ok := fr.dec.Ast.Nodes[s].(*ast.SendStmt)
	direct := ok && fr.sendsDirectly(a.Chan, a.Value)
	s.Chan = fr.rvalue(s.Chan)
	s.Value = fr.rvalue(s.Value)
	if !direct {
		return s
	}
	n := exprStmt(fr.rtCall(hookSend, s.Chan, s.Value, siteLit(fr.newSite(a, false)), fr.syncCtxArg()))
	moveDecs(n, s)
	return fr.from(n, s)
}

// recv rewrites the receive <-ch used as a value.
func (fr *fileRewriter) recv(x *dst.UnaryExpr, a *ast.UnaryExpr) dst.Expr {
	x.X = fr.rvalue(x.X)
	if fr.chanElem(a.X) == nil {
		return x
	}
	n := fr.rtCall(hookRecv, x.X, fr.syncCtxArg())
	moveDecs(n, x)
	return n
}

// recv2 rewrites the receive of v, ok = <-ch, or returns nil.
func (fr *fileRewriter) recv2(x *dst.UnaryExpr) dst.Expr {
	a, ok := fr.dec.Ast.Nodes[x].(*ast.UnaryExpr)
	if !ok || fr.chanElem(a.X) == nil {
		return nil
	}
	n := fr.rtCall(hookRecv2, fr.rvalue(x.X), fr.syncCtxArg())
	moveDecs(n, x)
	return n
}

// selectStmt rewrites
//
//	select {
//	case v := <-ch1:
//	case ch2 <- x:
//	}
//
// to
//
//	c1 := ch1; c2, x2 := ch2, x
//	h1 := racegenrt.ChanPreRecv(racegenrt.ChanOf(c1)); h2 := ...PreSend...
//	select {
//	case v := <-c1: h1.PostRecv() ...
//	case c2 <- x2: h2.PostSend() ...
//	}
//
// The channels and sent values are evaluated once, in source order, before
// the select, as Go evaluates them on entering it. A receive that assigns
// to existing variables receives into temporaries and assigns them after
// PostRecv, so that the stores are ordered after the communication.
func (fr *fileRewriter) selectStmt(s *dst.SelectStmt) (pre []dst.Stmt, core dst.Stmt) {
	var hooks []dst.Stmt
	for _, st := range s.Body.List {
		cc, ok := st.(*dst.CommClause)
		if !ok {
			continue
		}
		var prologue []dst.Stmt
		switch comm := cc.Comm.(type) {
		case *dst.SendStmt:
			a, ok := fr.dec.Ast.Nodes[comm].(*ast.SendStmt)
			if !ok || fr.chanElem(a.Chan) == nil {
				comm.Chan, comm.Value = fr.rvalue(comm.Chan), fr.rvalue(comm.Value)
				break
			}
			c := fr.temp("ch")
			pre = append(pre, define([]string{c}, fr.rvalue(comm.Chan)))
			comm.Chan = ident(c)
			if tv := fr.info.Types[a.Value]; tv.Value == nil && !tv.IsNil() {
				v := fr.temp("v")
				pre = append(pre, define([]string{v}, fr.rvalue(comm.Value)))
				comm.Value = ident(v)
			}
			h := fr.temp("h")
			hooks = append(hooks, define([]string{h}, fr.rtCall(hookChanPreSend, fr.rtCall(hookChanOf, ident(c)), siteLit(fr.newSite(a, false)), fr.syncCtxArg())))
			prologue = append(prologue, postCall(h, hookChanPreSend))
		case *dst.ExprStmt:
			if h := fr.selectRecv(comm.X, &pre, &hooks); h != "" {
				prologue = append(prologue, postCall(h, hookChanPreRecv))
			}
		case *dst.AssignStmt:
			h := fr.selectRecv(comm.Rhs[0], &pre, &hooks)
			if h == "" {
				break
			}
			prologue = append(prologue, postCall(h, hookChanPreRecv))
			if comm.Tok == token.ASSIGN {
				// case x, ok = <-c: receive into temporaries, assign
				// after PostRecv.
				assign := &dst.AssignStmt{Tok: token.ASSIGN}
				for i, l := range comm.Lhs {
					if id, ok := l.(*dst.Ident); ok && id.Name == "_" {
						continue
					}
					t := fr.temp("r")
					assign.Lhs = append(assign.Lhs, fr.store(l))
					assign.Rhs = append(assign.Rhs, ident(t))
					comm.Lhs[i] = ident(t)
				}
				comm.Tok = token.DEFINE
				if len(assign.Lhs) > 0 {
					prologue = append(prologue, assign)
				}
			}
		}
		cc.Body = append(prologue, fr.stmtList(cc.Body)...)
	}
	return append(pre, hooks...), s
}

// postCall returns the statement handle.Post...() that completes the
// operation of the hook pre (ChanPreSend or ChanPreRecv) whose result
// the variable handle holds.
func postCall(handle string, pre *hook) dst.Stmt {
	return exprStmt(&dst.CallExpr{Fun: &dst.SelectorExpr{X: ident(handle), Sel: ident(pre.post)}})
}

// selectRecv hoists the channel of the receive e of a select case into a
// temporary and returns the name of its Chan handle, or "" if e is not a
// receive the runtime can model.
func (fr *fileRewriter) selectRecv(e dst.Expr, pre, hooks *[]dst.Stmt) string {
	u, ok := unparen(e).(*dst.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return ""
	}
	a, ok := fr.dec.Ast.Nodes[u].(*ast.UnaryExpr)
	if !ok || fr.chanElem(a.X) == nil {
		u.X = fr.rvalue(u.X)
		return ""
	}
	c, h := fr.temp("ch"), fr.temp("h")
	*pre = append(*pre, define([]string{c}, fr.rvalue(u.X)))
	u.X = ident(c)
	*hooks = append(*hooks, define([]string{h}, fr.rtCall(hookChanPreRecv, fr.rtCall(hookChanOf, ident(c)), fr.syncCtxArg())))
	return h
}

// rangeStmt rewrites a range loop: its targets, its range expression and,
// for slices and pointers to arrays, the read of each element.
func (fr *fileRewriter) rangeStmt(s *dst.RangeStmt) (pre []dst.Stmt, core dst.Stmt) {
	a, ok := fr.dec.Ast.Nodes[s].(*ast.RangeStmt)
	if !ok {
		return nil, s
	}
	xt := fr.typeOf(a.X)
	if _, ok := under(xt).(*types.Chan); ok {
		return fr.rangeChan(s, a)
	}
	if s.Tok == token.ASSIGN {
		if s.Key != nil {
			s.Key = fr.store(s.Key)
		}
		if s.Value != nil {
			s.Value = fr.store(s.Value)
		}
	}
	hasValue := a.Value != nil && !isBlank(a.Value)
	perElem := false
	var elemType types.Type // of the elements read one by one, if perElem
	switch t := under(xt).(type) {
	case *types.Array:
		if hasValue || hasCallOrRecv(a.X) {
			s.X = fr.rvalue(s.X) // the array is copied
		}
	case *types.Pointer:
		if arr, isArr := under(t.Elem()).(*types.Array); isArr {
			if hasValue {
				s.X = fr.rvalue(s.X)
				perElem, elemType = true, arr.Elem()
			} else if hasCallOrRecv(a.X) {
				s.X = fr.rvalue(s.X)
			}
		} else {
			s.X = fr.rvalue(s.X)
		}
	case *types.Slice:
		s.X = fr.rvalue(s.X)
		perElem = hasValue && !fr.zeroSize(t.Elem()) && !hasTypeParam(xt)
		elemType = t.Elem()
	case *types.Map:
		s.X = fr.rvalue(s.X)
		if !hasTypeParam(xt) {
			if fr.localTarget(a.X) {
				fr.dropped++
			} else if n := fr.containerHook(hookMapR, s.X, a.X); n != nil {
				s.X = n
			}
		}
	default:
		s.X = fr.rvalue(s.X)
	}
	if perElem && s.Tok == token.DEFINE && !fr.localTarget(a.X) {
		// tmp := x; for i, v := range tmp { racegenrt.R(&tmp[i], site); ... }
		// unless the site gets no hook (static modes).
		if h := fr.accessHook(a.X, false); h != nil {
			tmp := fr.temp("x")
			pre = append(pre, fr.from(define([]string{tmp}, s.X), s))
			s.X = ident(tmp)
			if writes, ok := fr.wholeRange(a); ok {
				// tmp := x; racegenrt.SliceR(tmp, site); racegenrt.SliceW(tmp, site)...; for ... (see wholerange.go)
				whole := exprStmt(fr.rtCall(hookSliceR, ident(tmp), siteLit(fr.newSite(a.X, false))))
				pre = append(pre, fr.from(whole, s))
				for _, w := range writes {
					if fr.cfg.Local != nil && fr.cfg.Local(w) {
						continue // its hook is dropped in the body
					}
					// At the write's line, which a report whose
					// current access this is names (see rangeHooks).
					all := exprStmt(fr.rtCall(hookSliceW, ident(tmp), siteLit(fr.newSite(w, false))))
					pre = append(pre, fr.from(all, fr.dec.Dst.Nodes[w]))
					fr.ranged[w] = true
				}
				fr.blockStmt(s.Body)
				return pre, s
			}
			if s.Key == nil || isBlankDst(s.Key) {
				s.Key = ident(fr.temp("i"))
			}
			key := s.Key.(*dst.Ident).Name
			elem := &dst.IndexExpr{X: ident(tmp), Index: ident(key)}
			read := exprStmt(fr.accessHookCall(h, addrOf(elem), elemType, fr.newSite(a.X, false)))
			fr.blockStmt(s.Body)
			s.Body.List = append([]dst.Stmt{fr.from(read, s)}, s.Body.List...)
			return pre, s
		}
	} else if perElem && fr.localTarget(a.X) {
		fr.dropped++
	}
	fr.blockStmt(s.Body)
	return nil, s
}

// perLoopWrites records the writes a range clause makes to its variables
// at the start of every iteration when they are per-loop variables: in a
// file whose Go version is before go1.22, for k, v := range x declares k
// and v once, for the whole loop, and each iteration assigns them. A
// closure that a goroutine runs and that captures v then races with the
// next iteration's assignment, the most common race in Go before 1.22.
// (From go1.22 on, each iteration has variables of its own, which nothing
// but the iteration writes.)
func (fr *fileRewriter) perLoopWrites(s *dst.RangeStmt, a *ast.RangeStmt) {
	if s.Tok != token.DEFINE || analysis.PerIterationLoops(fr.pkg, fr.info, fr.astFile()) {
		return
	}
	var hooks []dst.Stmt
	for _, e := range []ast.Expr{a.Key, a.Value} {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		if h := fr.hookStmt(id, true); h != nil {
			hooks = append(hooks, fr.from(h, s))
		}
	}
	s.Body.List = append(hooks, s.Body.List...)
}

// rangeChan rewrites for v := range ch { body } to
//
//	c := ch
//	for {
//		h := racegenrt.ChanPreRecv(racegenrt.ChanOf(c))
//		v, ok := <-c
//		h.PostRecv()
//		if !ok { break }
//		{ body }
//	}
func (fr *fileRewriter) rangeChan(s *dst.RangeStmt, a *ast.RangeStmt) (pre []dst.Stmt, core dst.Stmt) {
	c, h, okName := fr.temp("ch"), fr.temp("h"), fr.temp("ok")
	pre = append(pre, fr.from(define([]string{c}, fr.rvalue(s.X)), s))
	var loop []dst.Stmt
	loop = append(loop, define([]string{h}, fr.rtCall(hookChanPreRecv, fr.rtCall(hookChanOf, ident(c)), fr.syncCtxArg())))
	recvInto := "_"
	var assign dst.Stmt
	switch {
	case s.Key == nil || isBlankDst(s.Key):
	case s.Tok == token.DEFINE:
		recvInto = s.Key.(*dst.Ident).Name
	default:
		t := fr.temp("r")
		recvInto = t
		assign = &dst.AssignStmt{Lhs: []dst.Expr{fr.store(s.Key)}, Tok: token.ASSIGN, Rhs: []dst.Expr{ident(t)}}
	}
	loop = append(loop,
		&dst.AssignStmt{Lhs: []dst.Expr{ident(recvInto), ident(okName)}, Tok: token.DEFINE,
			Rhs: []dst.Expr{&dst.UnaryExpr{Op: token.ARROW, X: ident(c)}}},
		postCall(h, hookChanPreRecv),
		&dst.IfStmt{Cond: &dst.UnaryExpr{Op: token.NOT, X: ident(okName)},
			Body: block(&dst.BranchStmt{Tok: token.BREAK})},
	)
	if assign != nil {
		loop = append(loop, assign)
	}
	fr.blockStmt(s.Body)
	loop = append(loop, s.Body)
	for _, st := range loop {
		fr.from(st, s)
	}
	f := &dst.ForStmt{Body: block(loop...)}
	moveDecs(f, s)
	return pre, fr.from(f, s)
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

func isBlankDst(e dst.Expr) bool {
	id, ok := e.(*dst.Ident)
	return ok && id.Name == "_"
}

// hasCallOrRecv reports whether e contains a function call or a receive,
// which make Go evaluate a range expression whose length is constant.
func hasCallOrRecv(e ast.Expr) bool {
	return containsCallOrRecv(e, func(*ast.CallExpr) bool { return true })
}

// containsCallOrRecv reports whether e, outside the function literals in
// it, contains a receive or a call for which counts returns true.
func containsCallOrRecv(e ast.Expr, counts func(*ast.CallExpr) bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if counts(n) {
				found = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				found = true
			}
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// astFile returns the syntax tree of the file being rewritten.
func (fr *fileRewriter) astFile() *ast.File {
	f, _ := fr.dec.Ast.Nodes[fr.file].(*ast.File)
	return f
}
