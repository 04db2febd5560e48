package instrument

import (
	"go/ast"
	"go/token"
	"strconv"

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
// leaves the loop; a return statement, or a call of panic, and the
// straight run of statements before it in its block may call any
// function, such as fmt.Errorf on an error path, since the loop is on
// its way out when the call runs. A call that synchronizes is rewritten
// to a runtime wrapper, which the rewrite's check below refuses.
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

// computesOnly reports whether the loop s only computes until it is left
// (analysis.Computations.ComputesUntilExit) and can be copied: a label
// in it, or a goto, would be defined twice or jump into the other copy.
// A labeled break or continue is to a label outside, since none is
// inside, and means the same in either copy.
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
// runs with hooks hoisted before it when it can (see hoist_eligible.go
// and hoist_emit.go).
func (fr *fileRewriter) versioned(plain, rewritten dst.Stmt, counted *countedLoop, leaf bool) dst.Stmt {
	if access, other := fr.runtimeCalls(rewritten); access == 0 || len(other) > 0 {
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
		Cond: fr.idleCall(leaf, els),
		Body: block(plain),
		Else: els,
	}
	moveDecs(v, rewritten)
	return fr.from(v, rewritten)
}

// leaf reports whether the statements of a versioned loop or tail, taken
// before they are rewritten, run no instrumented code but their own
// (analysis.Computations.Leaf): FRESA may then skip whole runs of their
// instrumented copy (idleCall).
func (fr *fileRewriter) leaf(list ...dst.Stmt) bool {
	for _, s := range list {
		a, ok := fr.dec.Ast.Nodes[s].(ast.Stmt)
		if !ok || !fr.comp.Leaf(a) {
			return false
		}
	}
	return len(list) > 0
}

// idleCall returns the test that chooses between the copies of a
// versioned loop or tail, whose instrumented copy is instrumented:
// racegenrt.Idle(), or, if the code runs no other instrumented code
// (leaf), racegenrt.IdleRun(key) with the key of the copy's run (runKey),
// with which FRESA skips whole runs of the copy in sampling periods (the
// runtime's fresaSkipRun).
func (fr *fileRewriter) idleCall(leaf bool, instrumented dst.Node) *dst.CallExpr {
	if key, ok := fr.runKey(instrumented); leaf && ok {
		return fr.rtCall(hookIdleRun, siteLit(key))
	}
	return fr.rtCall(hookIdle)
}

// runKey returns the key of the run of the instrumented copy n, whose
// sites its rewrite numbered consecutively, if the key can hold them: the
// package's key and the first site's index, as in a site (newSite), and
// the count of sites in bits 24 to 30 of the index's word (the runtime's
// runKeyCount). A count of sites beyond maxRunSites has none, since the
// runtime reads a counter for each at every run.
func (fr *fileRewriter) runKey(n dst.Node) (uint64, bool) {
	first, last := uint64(1<<32), uint64(0)
	dst.Inspect(n, func(n dst.Node) bool {
		c, ok := n.(*dst.CallExpr)
		if !ok {
			return true
		}
		name, ok := fr.rtCallee(c)
		if !ok {
			return true
		}
		h := hookTable[name]
		if h == nil {
			return true
		}
		for i, k := range h.params {
			if k != siteKind || i >= len(c.Args) {
				continue
			}
			if lit, ok := c.Args[i].(*dst.BasicLit); ok {
				if v, err := strconv.ParseUint(lit.Value, 0, 64); err == nil && uint32(v>>32) == fr.key {
					idx := v &^ siteFlags & (1<<32 - 1)
					first, last = min(first, idx), max(last, idx)
				}
			}
		}
		return true
	})
	if last == 0 || last-first+1 > maxRunSites || last >= 1<<24 {
		return 0, false
	}
	return uint64(fr.key)<<32 | (last-first+1)<<24 | first, true
}

// maxRunSites is the most sites a run key names.
const maxRunSites = 32

// runtimeCalls counts the calls of access hooks in the rewritten code n,
// and lists the other functions of the runtime that it calls, in order,
// Idle aside (the test of loops versioned in n). Versioned code may call
// the access hooks alone (loops), or the same others as its plain copy
// (tails).
func (fr *fileRewriter) runtimeCalls(n dst.Node) (access int, other []string) {
	dst.Inspect(n, func(n dst.Node) bool {
		if c, ok := n.(*dst.CallExpr); ok {
			if name, ok := fr.rtCallee(c); ok {
				switch h := hookTable[name]; {
				case h == hookIdle, h == hookIdleRun:
				case h != nil && h.access:
					access++
				default:
					other = append(other, name)
				}
			}
		}
		return true
	})
	return access, other
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
				if name, ok := fr.rtCallee(call); ok && (name == IdleHook || name == IdleRunHook) {
					c.Replace(v.Else)
				}
			}
		}
		return true
	})
}
