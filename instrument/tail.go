package instrument

import (
	"go/ast"
	"go/token"
	"maps"
	"slices"

	"github.com/dave/dst"
)

// Function and tail versioning. A function whose statements after the
// last one that may block, its tail, are enough work is versioned like a
// loop (version.go), from there on:
//
//	func (c *cache) get(k string) (v V, ok bool) {
//		c.mu.Lock() // and its hook
//		if racegenrt.Idle() {
//			tail, with the hooks of its synchronization only
//		} else {
//			tail, instrumented
//		}
//	}
//
// so that while the detector is idle a call tests it once rather than at
// every access. The tail of a function that never blocks, such as a
// parser's helper that reads and writes a few fields, is its whole body.
// racegen's compiler charges the if statement what the plain copy costs
// (cmd/racegen/inliner.go), so the function inlines where it did.
//
// A copy without any hooks would skip the hooks of the tail's
// synchronization too, and a release the detector does not see can make
// it report a race that did not happen; and a lock, a receive or a Wait
// can hold a copy past the start of a sampling period for as long as
// another goroutine likes. Most functions that lock take the lock first
// and then only compute until they return, unlocking on the way
// (m.Lock(); defer m.Unlock(); ...).
//
// A tail's statements never block (analysis.Computations.
// NeverBlocksUntilExit): they compute, unlock, make atomic operations,
// Add and Done on WaitGroups, close channels and defer calls, and call
// only functions of the package that never block themselves. Its plain
// copy is rewritten like the rest but for its accesses (syncOnly), so
// that every synchronization operation in it is recorded whenever the
// gate is open when it runs, as elsewhere: the copy skips accesses
// alone, which removes no happens-before edge, and so can cost a
// detection but never make a false report. Nothing in the tail waits for
// another goroutine before it is on its way out (a return statement, and
// the straight run of statements before it, may call anything), so what
// a sampling period that starts meanwhile misses is bounded by the tail's
// own work, as for a versioned loop.
//
// A tail must have at least minTailHooks access hooks, or
// minVersionedHooks if it is the whole body (fewer would save little and
// double the code), and no short variable declaration that assigns a
// variable declared before it (reassignsOuter). Its labels may be the
// targets of its own goto, break and continue statements only, since a
// goto cannot jump into a block; the plain copy's labels are renamed, so
// that each is defined once. The body of func main of package main, which
// must flush the detector's reports when it returns, has no tail.

// A tail is the versionable tail of a function body while the body is
// rewritten: the block that holds its statements, in place of them, and
// a copy of them taken before the rewrite.
type tail struct {
	block *dst.BlockStmt
	plain *dst.BlockStmt
	whole bool // the tail is the whole body
	leaf  bool // the tail runs no other instrumented code (fileRewriter.leaf)
}

// splitTail moves the tail of d's body, if it has one, into a block of
// its own, the body's last statement, and returns it with a copy of its
// statements. It is called before d is rewritten. A block around the
// tail means what the statements meant: no variable they declare is used
// after them, none of them assigns one declared before with :=, and no
// goto enters them (one may leave them, to a label before them).
func (fr *fileRewriter) splitTail(d *dst.FuncDecl) *tail {
	if fr.cfg.static() || d.Body == nil || fr.main {
		return nil
	}
	list := d.Body.List
	k := len(list)
	for k > 0 && fr.neverBlocks(list[k-1]) {
		k--
	}
	if k == len(list) || fr.reassignsOuter(list[k:]) {
		return nil
	}
	labels := labelsDefined(list[k:])
	if len(labels) > 0 && branchesTo(list[:k], labels) {
		return nil
	}
	t := &tail{block: &dst.BlockStmt{List: list[k:]}, plain: &dst.BlockStmt{}, whole: k == 0, leaf: fr.leaf(list[k:]...)}
	for _, s := range t.block.List {
		c := dst.Clone(s).(dst.Stmt)
		fr.copyOrigins(s, c)
		t.plain.List = append(t.plain.List, c)
	}
	fr.renameLabels(t.plain, labels)
	d.Body.List = append(list[:k:k], t.block)
	return t
}

// neverBlocks reports whether the statement s of a function body may be
// part of its tail.
func (fr *fileRewriter) neverBlocks(s dst.Stmt) bool {
	a, ok := fr.dec.Ast.Nodes[s].(ast.Stmt)
	return ok && fr.comp.NeverBlocksUntilExit(a)
}

// labelsDefined returns the set of labels that the statements of list
// define.
func labelsDefined(list []dst.Stmt) map[string]bool {
	labels := make(map[string]bool)
	for _, s := range list {
		dst.Inspect(s, func(n dst.Node) bool {
			if l, ok := n.(*dst.LabeledStmt); ok {
				labels[l.Label.Name] = true
			}
			return true
		})
	}
	return labels
}

// branchesTo reports whether a goto, break or continue statement in list
// names one of labels.
func branchesTo(list []dst.Stmt, labels map[string]bool) bool {
	found := false
	for _, s := range list {
		dst.Inspect(s, func(n dst.Node) bool {
			if b, ok := n.(*dst.BranchStmt); ok && b.Label != nil && labels[b.Label.Name] {
				found = true
			}
			return !found
		})
	}
	return found
}

// renameLabels renames each label of labels in b, which defines it and
// holds every statement that names it, to a name of its own. The names
// are chosen in the labels' order, so that the output is the same in
// every build.
func (fr *fileRewriter) renameLabels(b *dst.BlockStmt, labels map[string]bool) {
	if len(labels) == 0 {
		return
	}
	names := make(map[string]string, len(labels))
	for _, l := range slices.Sorted(maps.Keys(labels)) {
		names[l] = fr.freshName("racegen_" + l)
	}
	dst.Inspect(b, func(n dst.Node) bool {
		switch n := n.(type) {
		case *dst.LabeledStmt:
			n.Label.Name = names[n.Label.Name]
		case *dst.BranchStmt:
			if n.Label != nil && labels[n.Label.Name] {
				n.Label.Name = names[n.Label.Name]
			}
		}
		return true
	})
}

// minVersionedHooks is the number of access hooks the rewritten body of a
// function that never blocks, all of it a tail, must have to be
// versioned. fasthttp's two benchmarks at rate 0 (callgrind, 10,000
// operations each) ran 519.2, 522.1 and 531.2 million instructions with
// 2, 4 and 8, from test binaries of 45.9, 43.7 and 42.6 MB; before
// function versioning, 595.8 million and 40.5 MB.
const minVersionedHooks = 4

// minTailHooks is minVersionedHooks for the tail of a function that
// blocks before it: such tails are few and small, and their
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

// versionTail, called once d is rewritten, makes the tail t run as its
// plain copy while the detector is idle, if its rewrite has enough access
// hooks and the copy's rewrite makes the same calls of the runtime but
// for those; otherwise it puts the tail's statements back in the body.
func (fr *fileRewriter) versionTail(d *dst.FuncDecl, t *tail) {
	i := slices.Index(d.Body.List, dst.Stmt(t.block))
	if i < 0 {
		return // cannot happen: a block is rewritten in place
	}
	need := minTailHooks
	if t.whole {
		need = minVersionedHooks
	}
	if access, other := fr.runtimeCalls(t.block); access >= need {
		dropped := fr.dropped // the copy's accesses are counted once, in the tail
		fr.syncOnly = true
		fr.blockStmt(t.plain)
		fr.syncOnly = false
		fr.dropped = dropped
		if plainAccess, plainOther := fr.runtimeCalls(t.plain); plainAccess == 0 && slices.Equal(plainOther, other) {
			fr.unversionLoops(t.block)
			v := &dst.IfStmt{Cond: fr.idleCall(t.leaf && len(other) == 0, t.block), Body: t.plain, Else: t.block}
			d.Body.List[i] = fr.from(v, t.plain.List[0])
			return
		}
	}
	d.Body.List = slices.Replace(d.Body.List, i, i+1, t.block.List...)
}
