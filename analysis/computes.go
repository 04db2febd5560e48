package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Computations tells which code of a package only computes: it neither
// synchronizes nor blocks, starts no goroutine, defers nothing, and calls
// nothing but builtins that compute, conversions, and functions and
// methods of the package that only compute themselves. The instrumenter
// versions the loops that only compute: it runs a copy without access
// hooks while the detector is idle, and the copy's accesses go unrecorded
// until the loop ends. Such a loop ends after its own work, never after
// another goroutine's, so a sampling period that starts meanwhile misses
// a bounded stretch of it, and since nothing in it synchronizes, no
// happens-before edge is lost.
//
// A function only computes if its body does, the calls in it being to
// functions that only compute; recursion among such functions is
// allowed, as it waits for nothing. So are calls of the standard
// library's functions that only compute (purePackages), such as
// bytes.Equal. Calls through interfaces and function values, and of
// other packages' functions, are not: which code they run is not known
// here. Computations is immutable and safe for concurrent use.
//
// It also tells which code never blocks (NeverBlocksUntilExit): code
// that only computes but may also make the synchronization operations
// that never wait for another goroutine, such as an unlock or an atomic
// addition. The instrumenter versions the last statements of a function
// that locks, once the lock is taken, with a copy that keeps those
// operations' hooks.
//
// And it tells which code is a leaf (Leaf): code that only computes and,
// while it runs, runs no instrumented code but its own.
type Computations struct {
	info *types.Info
	// funcs holds, for each level, the functions and methods of the
	// package, by their generic origin, whose bodies keep to it.
	funcs [levels]map[*types.Func]bool
	// noMemory holds the functions of the package, by their generic
	// origin, that touch no memory (nomemory.go).
	noMemory map[*types.Func]bool
}

// A level is what code may do besides computing.
type level int

const (
	computing   level = iota // nothing
	nonBlocking              // synchronize without waiting (nonBlockingSync)
	levels
)

// NewComputations finds the functions of the package made of files,
// type-checked with info (Types, Defs, Uses, Selections), that only
// compute, and those that never block.
func NewComputations(files []*ast.File, info *types.Info) *Computations {
	c := &Computations{info: info}
	bodies := make(map[*types.Func]*ast.BlockStmt)
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					bodies[fn] = fd.Body
				}
			}
		}
	}
	for l := range levels {
		c.fixedPoint(bodies, l)
	}
	c.findNoMemory(bodies)
	return c
}

// fixedPoint sets c.funcs[l]: the functions among bodies that keep to
// level l, each with true, and the others with false. Every function of
// the package is in it from the start, so that computes counts calls of
// them as calls of the package.
func (c *Computations) fixedPoint(bodies map[*types.Func]*ast.BlockStmt, l level) {
	funcs := make(map[*types.Func]bool, len(bodies))
	for fn := range bodies {
		funcs[fn] = false
	}
	c.funcs[l] = funcs
	// callees holds, for each function whose body keeps to l but for its
	// calls, the functions of the package it calls.
	callees := make(map[*types.Func][]*types.Func)
	for fn, body := range bodies {
		var calls []*types.Func
		if c.computes(body, false, l, &calls) {
			callees[fn] = calls
		}
	}
	closeOver(funcs, callees)
}

// closeOver sets in set, to true, the functions of callees (each with
// the functions of the package it calls) whose calls stay, directly and
// through their callees, among them: the greatest fixed point, which
// allows recursion. Every other function of set stays false.
func closeOver(set map[*types.Func]bool, callees map[*types.Func][]*types.Func) {
	for fn := range callees {
		set[fn] = true
	}
	// Drop every function that calls one not in the set, until none
	// does.
	for changed := true; changed; {
		changed = false
		for fn, calls := range callees {
			if !set[fn] {
				continue
			}
			for _, g := range calls {
				if !set[g] {
					set[fn] = false
					changed = true
					break
				}
			}
		}
	}
}

// ComputesOnly reports whether the statement or expression n only
// computes: see Computations.
func (c *Computations) ComputesOnly(n ast.Node) bool {
	return c.only(n, false, computing)
}

// ComputesUntilExit reports whether n, a loop or a function's body, only
// computes until it is left: like ComputesOnly, except that the
// statements by which it leaves the function, a return statement or a
// call of panic, and the straight run of statements before them in their
// block (exitRun), may call any function. When such a call runs, the
// loop or function is on its way out: what remains is the rest of that
// run, each of its statements run at most once; the callee is
// instrumented as usual, and records its own synchronization. A
// synchronization operation written in those statements other than a
// call, like a receive, is still not allowed (the instrumenter's rewrite
// of a call that synchronizes tells it apart).
func (c *Computations) ComputesUntilExit(n ast.Node) bool {
	return c.only(n, true, computing)
}

// NeverBlocksUntilExit reports whether n, a statement, never waits for
// another goroutine until it is left: like ComputesUntilExit, except
// that n may also make the synchronization operations that never wait
// (unlocking a sync.Mutex or RWMutex, WaitGroup.Add and Done, the
// operations of sync/atomic, closing a channel), defer calls, and call
// the package's functions that never block themselves. It can take
// longer than its own work only where a goroutine it wakes runs first,
// or where a loop of atomic operations spins on another goroutine's
// store, as a spin lock does.
func (c *Computations) NeverBlocksUntilExit(n ast.Node) bool {
	return c.only(n, true, nonBlocking)
}

// Leaf reports whether n only computes (ComputesOnly) and runs no other
// instrumented code while it runs: its calls are conversions, builtins
// and calls of the package's functions that touch no memory
// (nomemory.go), which have no hooks. While such a loop runs, nothing
// else runs on its goroutine that could change what the detector keeps
// for the loop, which lets FRESA skip a whole run of its instrumented
// copy and draw its accesses by the decision it made for the run (the
// runtime's IdleRun).
func (c *Computations) Leaf(n ast.Node) bool {
	if !c.ComputesOnly(n) {
		return false
	}
	leaf := true
	ast.Inspect(n, func(n ast.Node) bool {
		// Inspect goes on to a node's siblings when told to leave its
		// children, so the answer, once false, must stay so.
		if !leaf {
			return false
		}
		if e, ok := n.(*ast.CallExpr); ok {
			conv, obj := c.callee(e)
			switch obj := obj.(type) {
			case *types.Builtin:
			case *types.Func:
				leaf = c.noMemory[obj.Origin()]
			default:
				leaf = conv
			}
		}
		return leaf
	})
	return leaf
}

func (c *Computations) only(n ast.Node, exits bool, l level) bool {
	var calls []*types.Func
	if !c.computes(n, exits, l, &calls) {
		return false
	}
	for _, fn := range calls {
		if !c.funcs[l][fn] {
			return false
		}
	}
	return true
}

// computes reports whether n keeps to level l, assuming that the
// functions of the package it calls, which it appends to calls, do. With
// exits, calls in return statements, calls of panic and exit runs are
// allowed too.
func (c *Computations) computes(n ast.Node, exits bool, l level, calls *[]*types.Func) bool {
	ok := true
	// out holds the stretches of source met so far that run only on the
	// way out of the function and that the inspection has not left: the
	// return statements, calls of panic and exit runs around the node
	// inspected, or ahead of it in its block. Each lies within the one
	// below it, so those it has left are on top.
	var out []span
	onWayOut := func(n ast.Node) bool {
		for _, s := range out {
			if s.pos <= n.Pos() {
				return true
			}
		}
		return false
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if !ok || n == nil {
			return false
		}
		for len(out) > 0 && out[len(out)-1].end <= n.Pos() {
			out = out[:len(out)-1]
		}
		if exits {
			var run []ast.Stmt
			switch n := n.(type) {
			case *ast.BlockStmt:
				run = c.exitRun(n.List)
			case *ast.CaseClause:
				run = c.exitRun(n.Body)
			case *ast.ReturnStmt:
				run = []ast.Stmt{n}
			case *ast.ExprStmt:
				if c.isPanic(n.X) {
					run = []ast.Stmt{n}
				}
			}
			if len(run) > 0 {
				out = append(out, span{run[0].Pos(), run[len(run)-1].End()})
			}
		}
		switch n := n.(type) {
		case *ast.DeferStmt:
			ok = l == nonBlocking // its call is judged as any other
		case *ast.FuncLit, *ast.GoStmt, *ast.SelectStmt, *ast.SendStmt:
			ok = false
		case *ast.UnaryExpr:
			ok = n.Op != token.ARROW
		case *ast.RangeStmt:
			switch CoreType(c.info.TypeOf(n.X)).(type) {
			case *types.Chan, *types.Signature, nil:
				ok = false // a receive, an iterator's calls, or unknown
			}
		case *ast.CallExpr:
			ok = onWayOut(n) || c.call(n, l, calls)
		}
		return ok
	})
	return ok
}

// exitRun returns the statements at the end of list that run only on the
// way out of the function: the longest suffix of list that ends in a
// return statement or a call of panic and holds no loop, label, goto,
// break, continue or fallthrough, so that once it starts nothing runs
// but its own statements, each at most once, until the function returns
// or panics. It returns nil if list does not end so. An error path such
// as `s.err = fmt.Errorf(...); return false` is one.
func (c *Computations) exitRun(list []ast.Stmt) []ast.Stmt {
	n := len(list)
	if n == 0 {
		return nil
	}
	switch s := list[n-1].(type) {
	case *ast.ReturnStmt:
	case *ast.ExprStmt:
		if !c.isPanic(s.X) {
			return nil
		}
	default:
		return nil
	}
	i := n
	for i > 0 && straight(list[i-1]) {
		i--
	}
	return list[i:]
}

// straight reports whether the statement s runs each of its statements at
// most once and leaves only to the statement after it: it has no loop,
// label or branch statement in it.
func straight(s ast.Stmt) bool {
	ok := true
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt, *ast.BranchStmt:
			ok = false
		}
		return ok
	})
	return ok
}

// A span is a stretch of source, [pos, end).
type span struct{ pos, end token.Pos }

// isPanic reports whether e is a call of the builtin panic.
func (c *Computations) isPanic(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	_, obj := c.callee(call)
	b, ok := obj.(*types.Builtin)
	return ok && b.Name() == "panic"
}

// call reports whether the call e may be part of code that keeps to
// level l: a conversion, a builtin other than close (a release), panic,
// recover and the print functions (which do more than compute), a static call of a
// function or method of the package, which it appends to calls, or a
// call of a standard library function that only computes (pureFunc)
// with no function among its arguments. Code that never blocks may also
// close a channel and make the synchronization operations that
// nonBlockingSync lists.
func (c *Computations) call(e *ast.CallExpr, l level, calls *[]*types.Func) bool {
	conv, obj := c.callee(e)
	if conv {
		return true
	}
	switch obj := obj.(type) {
	case *types.Builtin:
		switch obj.Name() {
		case "close":
			return l == nonBlocking // a release
		case "panic", "recover", "print", "println":
			return false // more than computing
		}
		return true
	case *types.Func:
		fn := obj.Origin()
		if _, known := c.funcs[l][fn]; known {
			*calls = append(*calls, fn)
			return true
		}
		if l == nonBlocking && nonBlockingSync(fn) {
			return true
		}
		// A function of the standard library that only computes, if
		// it is given no function to call.
		if !pureFunc(fn) {
			return false // an interface's method, or unknown code
		}
		for _, a := range e.Args {
			if _, isFunc := CoreType(c.info.TypeOf(a)).(*types.Signature); isFunc {
				return false
			}
		}
		return true
	}
	return false // a function value
}

// callee returns what the call e calls: conv reports a conversion, and
// obj is the function, method or builtin called, or nil for a function
// value (a function-valued field among them).
func (c *Computations) callee(e *ast.CallExpr) (conv bool, obj types.Object) {
	fun := ast.Unparen(e.Fun)
	if tv, ok := c.info.Types[fun]; ok && tv.IsType() {
		return true, nil
	}
	switch x := fun.(type) {
	case *ast.IndexExpr: // an explicit instantiation, f[T](...)
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	switch x := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return false, c.info.Uses[x]
	case *ast.SelectorExpr:
		if sel, ok := c.info.Selections[x]; ok {
			if sel.Kind() == types.FieldVal {
				return false, nil // a function-valued field
			}
			return false, sel.Obj()
		}
		return false, c.info.Uses[x.Sel] // a qualified identifier
	}
	return false, nil
}

// nonBlockingSync reports whether fn is a synchronization operation of
// the standard library that never waits for another goroutine: any
// function or method of sync/atomic, the unlocks of sync.Mutex and
// sync.RWMutex, and WaitGroup's Add and Done.
func nonBlockingSync(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sync/atomic":
		return true
	case "sync":
		sig, ok := fn.Type().(*types.Signature)
		if !ok || sig.Recv() == nil {
			return false
		}
		recv := sig.Recv().Type()
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		named, ok := recv.(*types.Named)
		if !ok {
			return false
		}
		switch named.Obj().Name() + "." + fn.Name() {
		case "Mutex.Unlock", "RWMutex.Unlock", "RWMutex.RUnlock", "WaitGroup.Add", "WaitGroup.Done":
			return true
		}
	}
	return false
}
