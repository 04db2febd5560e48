package main

import (
	"path/filepath"

	"github.com/racegen/racegen/instrument"
)

// The Go compiler inlines a function whose body costs at most 80 in its
// inliner's budget, and a call of racegen's hooks costs what the hook's
// body costs. So an instrumented function of a few accesses is too
// expensive to inline where the uninstrumented one was inlined (racegen
// instrumented, 6,325 of the 8,377 functions of net/http's and
// encoding/json's dependencies that go build inlines stayed inlinable),
// and what inlining buys is lost: speed, but also escape analysis, since
// a value passed to a function that is not inlined escapes more often
// (bufio.NewReaderSize(bytes.NewReader(b), n) then allocates the
// bytes.Reader). go build -race instruments after inlining and has
// neither cost; the compiler already makes the same exception for
// coverage counters (inline.isAtomicCoverageCounterUpdate).
//
// racegen therefore compiles the packages it instruments with a copy of
// the toolchain's own compiler, built from its GOROOT's sources with one
// change to the inliner's cost model (inlinerPatch): a call of the
// detector runtime costs what its operands cost in the original
// expression, the function's Ctx costs nothing, and a loop or function
// body versioned for the idle detector (instrument/version.go) costs what
// the original costs, not that and its instrumented copies. With it, 8,340 of
// those 8,377 functions inline, and the two sets differ by 142 and 105
// functions at the edge of the budget. The compiler is built once per
// toolchain, into racegen's directory in the build cache, and every
// other tool the build runs is the toolchain's own (compiler.go).

// inlinerPatch is the change to cmd/compile/internal/inline/inl.go.
var inlinerPatch = []sourceEdit{
	{
		anchor: "\tcase ir.OCALLFUNC:\n\t\tn := n.(*ir.CallExpr)\n",
		text: `		if racegenHook(n) {
			// racegen: a hook costs what the operand it wraps
			// costs, so that instrumenting a function does not
			// change whether it inlines.
			refunded := false
			for _, a := range n.Args {
				if racegenAux(a) {
					// Visited for the locals it uses, free.
					if v.racegenFree(func() bool { return v.do(a) }) {
						return true
					}
					continue
				}
				if a.Op() == ir.OADDR && !refunded {
					// *R(&x, ...) is x: neither the dereference
					// nor the address is in the original.
					v.budget++
					refunded = true
					a = a.(*ir.AddrExpr).X
				}
				if v.do(a) {
					return true
				}
			}
			return false
		}
`,
	},
	{
		anchor: "\tcase ir.OAS:\n\t\t// Special case for coverage counter updates",
		before: true,
		text: `	case ir.ODCL:
		if racegenAux(n.(*ir.Decl).X) {
			return v.racegenFreeChildren(n) // racegen: a function's Ctx
		}

`,
	},
	{
		anchor: "\t\tn := n.(*ir.AssignStmt)\n\t\tif n.X.Op() == ir.OINDEX && isIndexingCoverageCounter(n.X) {",
		before: true,
		text: `		if as := n.(*ir.AssignStmt); as.Y == nil && racegenAux(as.X) ||
			ir.IsBlank(as.X) && as.Y != nil && as.Y.Op() == ir.ONAME && racegenAux(as.Y) {
			return v.racegenFreeChildren(n) // racegen: a function's Ctx zeroed, or marked used
		}
`,
	},
	{
		anchor: "\tcase ir.OIF:\n\t\tn := n.(*ir.IfStmt)\n",
		text: `		if racegenIdle(n.Cond) {
			// racegen: a versioned loop or body, if racegenrt.Idle() {
			// the original } else { its instrumented copies },
			// costs what the original costs.
			if doList(n.Init(), v.do) || doList(n.Body, v.do) {
				return true
			}
			return v.racegenFree(func() bool { return doList(n.Else, v.do) })
		}
`,
	},
	{
		anchor: "\nfunc isIndexingCoverageCounter(n ir.Node) bool {",
		before: true,
		text: `
// racegenHook reports whether n calls racegen's detector runtime.
func racegenHook(n *ir.CallExpr) bool {
	if n.Fun.Op() != ir.ONAME {
		return false
	}
	name := n.Fun.(*ir.Name)
	return name.Class == ir.PFUNC && name.Sym().Pkg.Path == racegenRuntime
}

// racegenIdle reports whether n calls racegen's Idle or IdleRun hook.
func racegenIdle(n ir.Node) bool {
	c, ok := n.(*ir.CallExpr)
	if !ok || n.Op() != ir.OCALLFUNC || !racegenHook(c) {
		return false
	}
	name := c.Fun.Sym().Name
	return name == "` + instrument.IdleHook + `" || name == "` + instrument.IdleRunHook + `"
}

// racegenAux reports whether n, an argument of a hook or a variable, is
// one that racegen adds: a constant (a site), a variable racegen
// declared or its address (the function's Ctx), or a generic hook's
// dictionary.
func racegenAux(n ir.Node) bool {
	if ir.IsConstNode(n) {
		return true
	}
	switch n.Op() {
	case ir.OCONV, ir.OCONVNOP:
		return ir.IsConstNode(n.(*ir.ConvExpr).X)
	case ir.OADDR:
		n = n.(*ir.AddrExpr).X
	}
	if n.Op() != ir.ONAME {
		return false
	}
	s := n.Sym()
	return strings.HasPrefix(s.Name, "racegen") || s.Pkg != nil && s.Pkg.Path == racegenRuntime
}

// racegenFree runs visit, which visits nodes for the locals they use, at
// no cost: the budget is raised while it runs, so that the visitor does
// not stop early as too expensive (without -m=2 it stops as soon as the
// budget runs out), and restored after.
func (v *hairyVisitor) racegenFree(visit func() bool) bool {
	b := v.budget
	v.budget += 1 << 24
	if visit() {
		return true
	}
	v.budget = b
	return false
}

// racegenFreeChildren visits n's children at no cost.
func (v *hairyVisitor) racegenFreeChildren(n ir.Node) bool {
	return v.racegenFree(func() bool { return ir.DoChildren(n, v.do) })
}

const racegenRuntime = "` + instrument.RuntimePath + `"
`,
	},
}

// inlinerSource is the file of the compiler's source that inlinerPatch
// changes, relative to GOROOT.
var inlinerSource = filepath.Join("src", "cmd", "compile", "internal", "inline", "inl.go")
