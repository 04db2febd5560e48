package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/racegen/racegen/analysis"
)

// rewriteDecls rewrites the functions and package-level variable
// initializers of the file.
func (fr *fileRewriter) rewriteDecls() {
	for _, d := range fr.file.Decls {
		switch d := d.(type) {
		case *dst.FuncDecl:
			fr.funcDecl(d)
		case *dst.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			fr.fn = nil
			for _, s := range d.Specs {
				fr.valueSpec(s.(*dst.ValueSpec))
			}
		}
	}
}

func (fr *fileRewriter) funcDecl(d *dst.FuncDecl) {
	if d.Body == nil || fr.noHooks(d) {
		return
	}
	fr.fn = d
	fr.main = d.Recv == nil && d.Name.Name == "main" && fr.pkg.Name() == "main" && d.Type.TypeParams == nil
	t := fr.splitTail(d) // before d is rewritten (tail.go)
	if !fr.cfg.static() {
		// Static builds' hooks are sampled sites, each of which stays.
		fr.hooked = make(map[ast.Expr]*hookedAccess)
	}
	fr.blockStmt(d.Body)
	ad, _ := fr.dec.Ast.Nodes[d].(*ast.FuncDecl)
	fr.dropRedundant(ad)
	fr.hooked = nil
	fr.entryHook(d)
	if isExported(d) {
		fr.ioCallback(d.Body, d)
	}
	if fr.main {
		n := len(d.Body.List)
		if n == 0 || !isReturn(d.Body.List[n-1]) {
			d.Body.List = append(d.Body.List, fr.from(exprStmt(fr.rtCall(hookMainDone)), d))
		}
	}
	if t != nil {
		fr.versionTail(d, t)
	}
	fr.main = false
	fr.fn = nil
}

func isReturn(s dst.Stmt) bool {
	_, ok := s.(*dst.ReturnStmt)
	return ok
}

// from records that the rewriter made n for the original node o, so that
// n carries o's position in the output.
func (fr *fileRewriter) from(n dst.Node, o dst.Node) dst.Stmt {
	if fr.origin == nil {
		fr.origin = make(map[dst.Node]token.Pos)
	}
	if a, ok := fr.dec.Ast.Nodes[o]; ok {
		fr.origin[n] = a.Pos()
	} else if p, ok := fr.origin[o]; ok {
		fr.origin[n] = p
	}
	s, _ := n.(dst.Stmt)
	return s
}

// fromAll records o as the origin of the statements in list that the
// rewriter made and did not give an origin yet.
func (fr *fileRewriter) fromAll(list []dst.Stmt, o dst.Node) {
	for _, s := range list {
		if _, orig := fr.dec.Ast.Nodes[s]; !orig {
			if _, ok := fr.origin[s]; !ok {
				fr.from(s, o)
			}
		}
	}
}

func (fr *fileRewriter) blockStmt(b *dst.BlockStmt) {
	if b != nil {
		b.List = fr.stmtList(b.List)
	}
}

func (fr *fileRewriter) stmtList(list []dst.Stmt) []dst.Stmt {
	var out []dst.Stmt
	for _, s := range list {
		out = append(out, fr.stmt(s)...)
	}
	return out
}

// simpleStmt rewrites the init or post statement of an if, for or switch,
// which must stay one simple statement.
func (fr *fileRewriter) simpleStmt(s dst.Stmt) dst.Stmt {
	if s == nil {
		return nil
	}
	if send, ok := s.(*dst.SendStmt); ok {
		return fr.sendSimple(send)
	}
	saved := fr.simple
	fr.simple = true
	out := fr.stmt(s)
	fr.simple = saved
	// Hooks that follow a redeclaring := are dropped here: they would
	// need a statement list.
	return out[0]
}

// stmt rewrites one statement into one or more.
func (fr *fileRewriter) stmt(s dst.Stmt) []dst.Stmt {
	switch s.(type) {
	case *dst.CaseClause, *dst.CommClause:
		// Case expressions belong to the switch.
		return fr.stmt1(s)
	}
	if fr.simple {
		// The enclosing statement brackets the I/O calls of its
		// init and post statements.
		return fr.stmt1(s)
	}
	return fr.ioStmt(s, fr.stmt1)
}

func (fr *fileRewriter) stmt1(s dst.Stmt) []dst.Stmt {
	switch s := s.(type) {
	case *dst.ExprStmt:
		s.X = fr.rvalue(s.X)
		if !fr.simple {
			if b := fr.lockStmt(s); b != nil {
				return []dst.Stmt{b}
			}
		}
	case *dst.AssignStmt:
		return fr.assign(s)
	case *dst.IncDecStmt:
		s.X = fr.store(s.X)
	case *dst.SendStmt:
		return []dst.Stmt{fr.send(s)}
	case *dst.DeclStmt:
		if g, ok := s.Decl.(*dst.GenDecl); ok && g.Tok == token.VAR {
			for _, spec := range g.Specs {
				fr.valueSpec(spec.(*dst.ValueSpec))
			}
		}
	case *dst.ReturnStmt:
		fr.rvalues(s.Results)
		if len(s.Results) == 0 {
			if reads := fr.namedResultReads(s); len(reads) > 0 {
				return append(reads, s)
			}
		} else if b := fr.resultWrites(s); b != nil {
			return []dst.Stmt{b}
		}
		if fr.main {
			done := fr.from(exprStmt(fr.rtCall(hookMainDone)), s)
			moveDecs(done, s)
			return []dst.Stmt{done, s}
		}
	case *dst.BlockStmt:
		fr.blockStmt(s)
	case *dst.IfStmt:
		s.Init = fr.simpleStmt(s.Init)
		s.Cond = fr.rvalue(s.Cond)
		fr.blockStmt(s.Body)
		if s.Else != nil {
			if out := fr.stmt(s.Else); len(out) == 1 {
				s.Else = out[0]
			} else {
				// An else if that needs statements before it.
				fr.fromAll(out, s.Else)
				s.Else = fr.from(block(out...), s.Else)
			}
		}
	case *dst.ForStmt, *dst.RangeStmt, *dst.SelectStmt, *dst.SwitchStmt, *dst.TypeSwitchStmt:
		plain := fr.plainLoop(s) // before s is rewritten
		var counted *countedLoop
		var outer *outerLoop
		var leaf bool
		if plain != nil {
			counted = fr.countedLoop(s) // see hoist_emit.go
			outer = fr.pushOuter(s)
			leaf = fr.leaf(s)
		}
		pre, core := fr.compound(s)
		if outer != nil {
			pre = append(pre, fr.popOuter(outer)...)
		}
		out := core
		if len(pre) > 0 {
			fr.fromAll(pre, core)
			b := block(append(pre, core)...)
			moveDecs(b, core)
			out = fr.from(b, core)
		}
		if plain != nil {
			out = fr.versioned(plain, out, counted, leaf)
		}
		return []dst.Stmt{out}
	case *dst.LabeledStmt:
		switch s.Stmt.(type) {
		case *dst.ForStmt, *dst.RangeStmt, *dst.SelectStmt, *dst.SwitchStmt, *dst.TypeSwitchStmt:
			// The label must stay on the loop, select or switch, for
			// break and continue; statements the rewriter puts before
			// it go in a block around the label.
			pre, core := fr.compound(s.Stmt)
			s.Stmt = core
			if len(pre) == 0 {
				return []dst.Stmt{s}
			}
			fr.fromAll(pre, s)
			b := block(append(pre, s)...)
			moveDecs(b, s)
			return []dst.Stmt{fr.from(b, s)}
		}
		out := fr.stmt(s.Stmt)
		s.Stmt = out[0]
		return append([]dst.Stmt{s}, out[1:]...)
	case *dst.GoStmt:
		return []dst.Stmt{fr.goStmt(s)}
	case *dst.DeferStmt:
		fr.deferStmt(s)
	case *dst.CaseClause:
		fr.rvalues(s.List)
		s.Body = fr.stmtList(s.Body)
	}
	return []dst.Stmt{s}
}

// funcType returns the signature of the function being rewritten, or nil.
func (fr *fileRewriter) funcType() *ast.FuncType {
	switch f := fr.dec.Ast.Nodes[fr.fn].(type) {
	case *ast.FuncDecl:
		return f.Type
	case *ast.FuncLit:
		return f.Type
	}
	return nil
}

// resultWrites rewrites return e1, ..., en, whose operands are already
// rewritten, in a function whose results r1, ..., rn are named and some
// shared, as
//
//	{
//		r1, ..., rn = e1, ..., en
//		racegenrt.W(&ri, site) // for each shared ri
//		return
//	}
//
// so that the write of the results, which the return statement makes
// once its operands are evaluated and before deferred calls run, is
// recorded: a goroutine that captured a result may read it concurrently.
// The assignment has the same semantics as the return's. A result
// returned as itself (return r) is not written: the compiler drops that
// self-assignment, and go build -race reports no write there. resultWrites
// returns nil, leaving s alone, if no result needs a hook, if a result
// is blank, or if a result is shadowed where s stands, so that a naked
// return would not compile.
func (fr *fileRewriter) resultWrites(s *dst.ReturnStmt) dst.Stmt {
	as, ok := fr.dec.Ast.Nodes[s].(*ast.ReturnStmt)
	ft := fr.funcType()
	if !ok || ft == nil || ft.Results == nil {
		return nil
	}
	var names []*ast.Ident
	for _, field := range ft.Results.List {
		if len(field.Names) == 0 {
			return nil
		}
		names = append(names, field.Names...)
	}
	scope := fr.pkg.Scope().Innermost(as.Pos())
	if scope == nil {
		return nil
	}
	var hooks []dst.Stmt
	for i, name := range names {
		v, ok := fr.info.Defs[name].(*types.Var)
		if !ok || name.Name == "_" {
			return nil
		}
		if _, obj := scope.LookupParent(name.Name, as.Pos()); obj != v {
			return nil
		}
		if fr.vars.Unaliased(v) || fr.zeroSize(v.Type()) {
			continue
		}
		if len(as.Results) == len(names) {
			if id, ok := ast.Unparen(as.Results[i]).(*ast.Ident); ok && fr.info.Uses[id] == v {
				continue
			}
		}
		if fr.cfg.Local != nil && fr.cfg.Local(name) {
			fr.dropped++
			continue
		}
		if h := fr.accessStmt(addrOf(ident(name.Name)), v.Type(), as, false, true); h != nil {
			hooks = append(hooks, h)
		}
	}
	if len(hooks) == 0 {
		return nil
	}
	lhs := make([]dst.Expr, len(names))
	for i, name := range names {
		lhs[i] = ident(name.Name)
	}
	assign := &dst.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: s.Results}
	s.Results = nil
	b := block(append(append([]dst.Stmt{assign}, hooks...), s)...)
	moveDecs(b, s)
	fr.fromAll(b.List, s)
	return fr.from(b, s)
}

// namedResultReads returns hooks for the reads of the shared named
// results of the enclosing function that the naked return s makes.
func (fr *fileRewriter) namedResultReads(s *dst.ReturnStmt) []dst.Stmt {
	ft := fr.funcType()
	if ft == nil || ft.Results == nil {
		return nil
	}
	var out []dst.Stmt
	for _, field := range ft.Results.List {
		for _, name := range field.Names {
			v, ok := fr.info.Defs[name].(*types.Var)
			if !ok || name.Name == "_" || fr.vars.Unaliased(v) || fr.zeroSize(v.Type()) {
				continue
			}
			if fr.cfg.Local != nil && fr.cfg.Local(name) {
				fr.dropped++
				continue
			}
			if h := fr.accessStmt(addrOf(ident(name.Name)), v.Type(), fr.dec.Ast.Nodes[s], false, false); h != nil {
				out = append(out, fr.from(h, s))
			}
		}
	}
	return out
}

// compound rewrites a for, range, select or switch statement. It returns
// the statements that must run before it (in the same block, outside any
// label) and the statement itself.
func (fr *fileRewriter) compound(s dst.Stmt) (pre []dst.Stmt, core dst.Stmt) {
	switch s := s.(type) {
	case *dst.ForStmt:
		s.Init = fr.simpleStmt(s.Init)
		s.Cond = fr.ioExpr(s.Cond)
		s.Post = fr.ioPost(s.Post)
		fr.blockStmt(s.Body)
	case *dst.RangeStmt:
		pre, core = fr.rangeStmt(s)
		if r, ok := core.(*dst.RangeStmt); ok {
			if a, ok := fr.dec.Ast.Nodes[r].(*ast.RangeStmt); ok {
				fr.perLoopWrites(r, a)
			}
		}
		return pre, core
	case *dst.SelectStmt:
		return fr.selectStmt(s)
	case *dst.SwitchStmt:
		s.Init = fr.simpleStmt(s.Init)
		s.Tag = fr.rvalueOpt(s.Tag)
		fr.blockStmt(s.Body)
	case *dst.TypeSwitchStmt:
		s.Init = fr.simpleStmt(s.Init)
		switch as := s.Assign.(type) {
		case *dst.ExprStmt:
			if ta, ok := as.X.(*dst.TypeAssertExpr); ok {
				ta.X = fr.rvalue(ta.X)
			}
		case *dst.AssignStmt:
			if ta, ok := as.Rhs[0].(*dst.TypeAssertExpr); ok {
				ta.X = fr.rvalue(ta.X)
			}
		}
		fr.blockStmt(s.Body)
	}
	return nil, s
}

// assign rewrites =, := and op= statements.
func (fr *fileRewriter) assign(s *dst.AssignStmt) []dst.Stmt {
	a, ok := fr.dec.Ast.Nodes[s].(*ast.AssignStmt)
	if !ok {
		return []dst.Stmt{s}
	}
	var post []dst.Stmt
	if s.Tok == token.DEFINE {
		// A := that redeclares a shared variable writes it.
		for _, l := range a.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			if _, isUse := fr.info.Uses[id]; !isUse {
				continue
			}
			if h := fr.hookStmt(id, true); h != nil {
				post = append(post, fr.from(h, s))
			}
		}
	} else if !fr.simple && fr.mayCommunicate(a.Rhs) {
		return fr.assignAfter(s, a)
	} else {
		for i, l := range s.Lhs {
			s.Lhs[i] = fr.store(l)
		}
	}
	fr.rhs(s.Rhs, len(s.Lhs))
	return append([]dst.Stmt{s}, post...)
}

// assignAfter rewrites an assignment whose right-hand side may
// synchronize (it calls a function or receives), such as x = <-c. The
// store happens after that synchronization, so its hook must too: the
// targets' addresses are computed first, in order, as Go evaluates them,
// and the writes are recorded after the assignment:
//
//	{ p := &x; *p = <-c; racegenrt.W(p, site) }
func (fr *fileRewriter) assignAfter(s *dst.AssignStmt, a *ast.AssignStmt) []dst.Stmt {
	var pre, post []dst.Stmt
	for i, l := range s.Lhs {
		al := a.Lhs[i]
		if isBlank(al) {
			continue
		}
		if ix, ok := l.(*dst.IndexExpr); ok && fr.isMap(al.(*ast.IndexExpr).X) {
			aix := al.(*ast.IndexExpr)
			m := fr.temp("m")
			pre = append(pre, define([]string{m}, fr.rvalue(ix.X)))
			ix.X = ident(m)
			if tv := fr.info.Types[aix.Index]; tv.Value == nil {
				k := fr.temp("k")
				pre = append(pre, define([]string{k}, fr.rvalue(ix.Index)))
				ix.Index = ident(k)
			}
			if fr.cfg.Local != nil && fr.cfg.Local(aix) {
				fr.dropped++
			} else if !hasTypeParam(fr.typeOf(aix.X)) {
				if h := fr.containerHook(hookMapW, ident(m), aix); h != nil {
					post = append(post, exprStmt(h))
				}
			}
			continue
		}
		if _, isIdent := al.(*ast.Ident); isIdent || !fr.addressable(al) {
			if h := fr.writeHook(al, func() dst.Expr { return addrOf(ident(al.(*ast.Ident).Name)) }); h != nil {
				post = append(post, h)
			}
			continue
		}
		p := fr.temp("p")
		pre = append(pre, define([]string{p}, fr.addr(fr.place(l))))
		s.Lhs[i] = deref(ident(p))
		if h := fr.writeHook(al, func() dst.Expr { return ident(p) }); h != nil {
			post = append(post, h)
		}
	}
	fr.rhs(s.Rhs, len(s.Lhs))
	if len(pre) == 0 && len(post) == 0 {
		return []dst.Stmt{s}
	}
	b := block(append(append(pre, s), post...)...)
	moveDecs(b, s)
	fr.fromAll(b.List, s)
	return []dst.Stmt{fr.from(b, s)}
}

// writeHook returns the statement that records the write of a, through
// the pointer p makes, or nil if a needs no hook.
func (fr *fileRewriter) writeHook(a ast.Expr, p func() dst.Expr) dst.Stmt {
	shared, global := fr.isShared(a)
	if !shared || fr.zeroSize(fr.typeOf(a)) {
		return nil
	}
	if fr.cfg.Local != nil && fr.cfg.Local(a) {
		fr.dropped++
		return nil
	}
	return fr.accessStmt(p(), fr.typeOf(a), a, global, true)
}

// mayCommunicate reports whether evaluating es may synchronize with
// another goroutine: it calls a function (a conversion or a builtin other
// than close does not count) or receives from a channel.
func (fr *fileRewriter) mayCommunicate(es []ast.Expr) bool {
	call := func(n *ast.CallExpr) bool {
		tv, ok := fr.info.Types[n.Fun]
		return !ok || !tv.IsType() && !(tv.IsBuiltin() && analysis.BuiltinName(fr.info, n.Fun) != "close")
	}
	for _, e := range es {
		if containsCallOrRecv(e, call) {
			return true
		}
	}
	return false
}

// rhs rewrites the right-hand side of an assignment to n variables, where
// v, ok = <-ch is the one form whose rewrite depends on the left.
func (fr *fileRewriter) rhs(rhs []dst.Expr, n int) {
	if n == 2 && len(rhs) == 1 {
		if u, ok := unparen(rhs[0]).(*dst.UnaryExpr); ok && u.Op == token.ARROW {
			if r := fr.recv2(u); r != nil {
				rhs[0] = r
				return
			}
		}
	}
	fr.rvalues(rhs)
}

func unparen(e dst.Expr) dst.Expr {
	for {
		p, ok := e.(*dst.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// hookStmt returns the statement racegenrt.R(&x, site) or W for the
// variable x, or nil if x needs no hook.
func (fr *fileRewriter) hookStmt(id *ast.Ident, write bool) dst.Stmt {
	shared, global := fr.isShared(id)
	if !shared || fr.zeroSize(fr.typeOf(id)) {
		return nil
	}
	if fr.cfg.Local != nil && fr.cfg.Local(id) {
		fr.dropped++
		return nil
	}
	return fr.accessStmt(addrOf(ident(id.Name)), fr.typeOf(id), id, global, write)
}

func (fr *fileRewriter) valueSpec(s *dst.ValueSpec) {
	fr.rhs(s.Values, len(s.Names))
}

// deferStmt rewrites defer f(x). The hooks in f and x run when the defer
// statement does, as their evaluation does; a deferred delete or clear
// keeps its map or slice unhooked, since a hook there would record the
// write at the defer statement rather than when it happens.
func (fr *fileRewriter) deferStmt(s *dst.DeferStmt) {
	a, ok := fr.dec.Ast.Nodes[s.Call].(*ast.CallExpr)
	if !ok {
		return
	}
	switch analysis.BuiltinName(fr.info, a.Fun) {
	case "delete", "clear":
		fr.rvalues(s.Call.Args)
		return
	}
	saved := fr.ioDirect
	fr.ioDirect = a
	defer func() { fr.ioDirect = saved }()
	if c, ok := fr.rvalue(s.Call).(*dst.CallExpr); ok {
		s.Call = c
		fr.deferredUnlock(c)
	}
}
