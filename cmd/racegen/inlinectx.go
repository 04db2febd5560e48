package main

import (
	"path/filepath"

	"github.com/racegen/racegen/instrument"
)

// Every instrumented function declares a Ctx, zero, in which the runtime
// caches the running goroutine's state at the function's first sampled
// access (runtime.Ctx). When the compiler inlines such a function, its
// Ctx becomes a local of the caller that is zeroed at each inlined call,
// so a small function inlined into a loop, testing.B.Loop in every
// benchmark or a getter in a parser, looks the goroutine up again at each
// iteration: a lookup and the hook's slow path, about 200 instructions,
// where a filled Ctx answers in one load (bench/ops's SameWord spent 38%
// of its instructions at rate 1 refilling B.Loop's).
//
// racegen's compiler therefore gives an inlined function the Ctx of the
// function it is inlined into (readerPatch, in the reader that copies an
// inlined body into its caller): the callee's declaration of its Ctx
// reads as the caller's own Ctx, and declares and zeroes nothing. The
// inlined accesses run on the caller's goroutine, in the caller's frame,
// where its Ctx lies, which is all the runtime asks of a Ctx; they are
// then what they would be had the source written the callee's body into
// the caller. The caller's own Ctx is the one it declares first thing in
// its body, never one that an earlier inlined call left among its locals.
// A function declares one if it makes an access, or calls a function in a
// loop (instrument's declareCtx); a caller that declares none keeps its
// callees'.

// readerPatch is the change to cmd/compile/internal/noder/reader.go.
var readerPatch = []sourceEdit{
	{
		anchor: "\tcase assignDef:\n\t\tpos := r.pos()\n\t\tsetBasePos(pos) // test/fixedbugs/issue49767.go depends on base.Pos being set for the r.typ() call here, ugh\n",
		text: `		if sym, typ := r.localIdent(), r.typ(); true {
			// racegen: an inlined function's Ctx is its caller's.
			// This replaces the three statements after it, left
			// unreachable: a patch only inserts.
			name := r.racegenCallerCtx(sym, typ)
			if name == nil {
				name = r.curfn.NewLocal(pos, sym, typ)
			}
			r.addLocal(name)
			return name, true
		}
`,
	},
	{
		anchor: "\t\tif len(rhs) == 0 {\n\t\t\tfor _, name := range names {\n",
		text: `				if r.inlCall != nil && name.Curfn == r.inlCaller {
					continue // racegen: the caller's Ctx, declared and zeroed by the caller
				}
`,
	},
	{
		anchor: "\nfunc (r *reader) blockStmt() []ir.Node {",
		before: true,
		text: `
// racegenCallerCtx returns, while r inlines a call, the Ctx that the
// caller declares for itself if sym, of type typ, is the callee's Ctx;
// otherwise nil.
func (r *reader) racegenCallerCtx(sym *types.Sym, typ *types.Type) *ir.Name {
	if r.inlCall == nil || r.inlCaller == nil || !racegenCtx(sym, typ) {
		return nil
	}
	for _, n := range r.inlCaller.Dcl {
		if n.Class == ir.PAUTO && !n.InlLocal() && !n.InlFormal() && racegenCtx(n.Sym(), n.Type()) {
			return n
		}
	}
	return nil
}

// racegenCtx reports whether sym, of type typ, names a function's Ctx
// that racegen declared.
func racegenCtx(sym *types.Sym, typ *types.Type) bool {
	ts := typ.Sym()
	return sym != nil && strings.HasPrefix(sym.Name, "` + instrument.CtxName + `") &&
		ts != nil && ts.Name == "` + instrument.CtxType + `" && ts.Pkg != nil && ts.Pkg.Path == "` + instrument.RuntimePath + `"
}
`,
	},
}

// readerSource is the file of the compiler's source that readerPatch
// changes, relative to GOROOT.
var readerSource = filepath.Join("src", "cmd", "compile", "internal", "noder", "reader.go")
