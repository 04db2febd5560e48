package instrument

import (
	"go/ast"
	"go/token"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// Loop versioning. A hook costs a load and a branch while the detector is
// idle (no sampling period on, no access history anywhere), but in a
// tight loop that is still several times the work of the loop itself. So
// a loop that only computes (analysis.Computations: no synchronization,
// and no calls but of builtins, conversions and the package's functions
// that only compute) is emitted twice:
//
//	if racegenrt.Idle() {
//		for ... { original body }
//	} else {
//		for ... { instrumented body }
//	}
//
// and the detector's state is consulted once per execution of the loop
// instead of once per access. Running the original copy is like running
// the loop's accesses while the detector is idle: they are neither checked
// nor recorded. If a sampling period starts while the loop runs, the rest
// of the loop is not sampled, which can cost a detection, never a false
// report: skipping accesses removes no happens-before edge, and the loop
// has no synchronization to skip. How long that lasts is bounded by the
// loop's own work, since nothing in it waits for another goroutine. The
// functions it calls are instrumented as usual and ask the detector
// themselves. A return, break or continue leaves either copy as it
// leaves the loop; a return statement, or a call of panic, may call any
// function, such as fmt.Errorf on an error path, since the loop has
// ended when the call runs.
//
// A loop qualifies if it only computes, is not labeled, has no label or
// goto in it, and its rewrite calls no runtime function but the access
// hooks (a return from main, which must flush the detector's reports,
// does). Static and collide builds, which have no per-access hooks on
// most sites, are not versioned.

// plainLoop returns a copy of the loop s, taken before s is rewritten, if
// s may be versioned, or nil.
func (fr *fileRewriter) plainLoop(s dst.Stmt) dst.Stmt {
	if fr.cfg.static() || fr.syncOnly {
		return nil
	}
	switch s.(type) {
	case *dst.ForStmt, *dst.RangeStmt:
	default:
		return nil
	}
	if !fr.computesOnly(s) {
		return nil
	}
	c := dst.Clone(s).(dst.Stmt)
	fr.copyOrigins(s, c)
	return c
}

// computesOnly reports whether the loop or function body s only computes
// until it is left (analysis.Computations.ComputesUntilExit) and can be
// copied: a label in it, or a goto, would be defined twice or jump into
// the other copy. A labeled break or continue is to a label outside,
// since none is inside, and means the same in either copy.
func (fr *fileRewriter) computesOnly(s dst.Stmt) bool {
	a, ok := fr.dec.Ast.Nodes[s].(ast.Stmt)
	return ok && fr.comp.ComputesUntilExit(a) && copyable(a)
}

// copyable reports whether the statement a has no label or goto in it,
// which copies of it would define twice or jump into the other copy from.
func copyable(a ast.Stmt) bool {
	copyable := true
	ast.Inspect(a, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.LabeledStmt:
			copyable = false
		case *ast.BranchStmt:
			copyable = copyable && n.Tok != token.GOTO
		}
		return copyable
	})
	return copyable
}

// copyOrigins records each node of the copy c as a copy of its
// counterpart in s: it shares the counterpart's syntax tree, and so its
// types and position, or, for a node the rewriter made, its origin. So
// the copy gets line comments like the rest, and the rewriter can
// rewrite it as it rewrites s (tail.go).
func (fr *fileRewriter) copyOrigins(s, c dst.Node) {
	orig, copies := preorder(s), preorder(c)
	if len(orig) != len(copies) {
		return // cannot happen: Clone copies the tree node for node
	}
	for i, n := range copies {
		if a, ok := fr.dec.Ast.Nodes[orig[i]]; ok {
			fr.dec.Ast.Nodes[n] = a
		} else {
			fr.from(n, orig[i])
		}
	}
}

// preorder lists the nodes of the tree at n in the order Inspect visits
// them.
func preorder(n dst.Node) []dst.Node {
	var ns []dst.Node
	dst.Inspect(n, func(m dst.Node) bool {
		if m != nil {
			ns = append(ns, m)
		}
		return true
	})
	return ns
}

// versioned returns the statement that runs plain while the detector is
// idle and rewritten otherwise, or rewritten itself if its rewrite calls
// anything but access hooks, or nothing. If counted is not nil, the loop
// runs with hooks hoisted before it when it can (see hoist_eligible.go and hoist_emit.go).
func (fr *fileRewriter) versioned(plain, rewritten dst.Stmt, counted *countedLoop) dst.Stmt {
	if hooks, only := fr.accessHooks(rewritten); !only || hooks == 0 {
		return rewritten
	}
	var els dst.Stmt = rewritten
	if _, ok := rewritten.(*dst.BlockStmt); !ok {
		els = block(rewritten)
	}
	if counted != nil {
		els = fr.hoisted(counted, els)
	}
	v := &dst.IfStmt{
		Cond: fr.rtCall(hookIdle),
		Body: block(plain),
		Else: els,
	}
	moveDecs(v, rewritten)
	return fr.from(v, rewritten)
}

// accessHooks counts the calls of the runtime in the rewritten code n,
// and reports whether they are all of hooks that record accesses and
// synchronize nothing (or Idle, for loops versioned in it).
func (fr *fileRewriter) accessHooks(n dst.Node) (hooks int, only bool) {
	only = true
	dst.Inspect(n, func(n dst.Node) bool {
		if c, ok := n.(*dst.CallExpr); ok {
			if name, ok := fr.rtCallee(c); ok {
				h := hookTable[name]
				only = only && h != nil && h.access
				if h != hookIdle {
					hooks++
				}
			}
		}
		return only
	})
	return hooks, only
}

// minVersionedHooks is the number of access hooks a function's rewritten
// body, or its tail, must have to be versioned (tail.go). fasthttp's two benchmarks at rate 0
// (callgrind, 10,000 operations each) ran 519.2, 522.1 and 531.2 million
// instructions with 2, 4 and 8, from test binaries of 45.9, 43.7 and 42.6
// MB; before function versioning, 595.8 million and 40.5 MB.
const minVersionedHooks = 4

// minTailHooks is minVersionedHooks for the tail of a function that
// blocks before it (tail.go): such tails are few and small, and their
// functions, like a sharded map's Get (lock, read the shard's map,
// unlock), are often the hot ones. shardmap's benchmark at rate 0
// (callgrind, 4x) ran 135.2 and 131.4 million instructions (110.9-111.0
// uninstrumented) with 4 and 2, and fasthttp's test binary was 44.4 and
// 44.6 MB; with 2 for whole bodies too, 46.8 MB.
const minTailHooks = 2

// reassignsOuter reports whether a short variable declaration among the
// statements of list assigns a variable declared before them, as
// `n, err := f()` does at the top of a body with a result err. Moved into
// the blocks of the if statement, it would declare a new variable
// instead, which a bare return, or a deferred function, would not see.
func (fr *fileRewriter) reassignsOuter(list []dst.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	first, ok := fr.dec.Ast.Nodes[list[0]]
	if !ok {
		return true // cannot happen: the list is the source's
	}
	for _, s := range list {
		as, ok := fr.dec.Ast.Nodes[s].(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			continue
		}
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" || fr.info.Defs[id] != nil {
				continue // a new variable
			}
			// A variable the list declared before is in the same block.
			if obj := fr.info.Uses[id]; obj == nil || obj.Pos() < first.Pos() {
				return true
			}
		}
	}
	return false
}

// unversionLoops replaces each versioned loop in the instrumented body b
// of a versioned function by its instrumented copies: b runs when the
// detector was not idle at the function's entry, so their plain copies
// would seldom run, and would only make the function larger. Loops are
// replaced after the loops in them, which the replacement is not walked
// for.
func (fr *fileRewriter) unversionLoops(b *dst.BlockStmt) {
	dstutil.Apply(b, nil, func(c *dstutil.Cursor) bool {
		if v, ok := c.Node().(*dst.IfStmt); ok {
			if call, ok := v.Cond.(*dst.CallExpr); ok {
				if name, ok := fr.rtCallee(call); ok && name == IdleHook {
					c.Replace(v.Else)
				}
			}
		}
		return true
	})
}
