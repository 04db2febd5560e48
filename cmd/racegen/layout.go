package main

import (
	"path/filepath"

	"github.com/racegen/racegen/instrument"
)

// A detector hook inlined into instrumented code is a test of the gate
// and, while it is open, a call: `if gateOpen() { hookAccess(...) }`.
// The compiler predicts the call unlikely, yet its block layout puts the
// call's block right after the test: the edge around the call is split
// by an empty block, which the layout places next, as predicted, and
// then, having no likely successor to follow, it places the next block
// ready, which is the call's. So each access carries its slow path
// inline: at rate 0, twelve bytes of test and branch that run, then
// thirty to forty of argument set-up, call and register reloads that do
// not, and the code fetched is three to four times the code run.
//
// racegen's compiler lays those blocks out after the rest of the
// function, with its exit blocks (layoutPatch): a block that calls
// racegen's runtime and is reached only by the unlikely edge of a
// branch. The tests then run in a row, and a slow path costs two jumps
// more while the gate is open. A build at rate 1 (dynamic mode), whose
// gate is always open, keeps the compiler's layout: every slow path runs
// there, and cold blocks made bench/ops's accesses 2-7% slower.
// coldHooksSetting says which builds lay the slow paths out last; the
// compiler learns it from the environment variable coldHooksEnv.

// coldHooksEnv is set in the environment of every compile racegen's
// compiler makes: to 1 when it is to lay hooks' slow paths out last, else
// to 0, whatever racegen's own environment says.
const coldHooksEnv = "RACEGEN_COLD_HOOKS"

// coldHooksSetting returns the environment setting of coldHooksEnv for a
// build with cfg, which lays the hooks' slow paths out after the rest of
// their functions unless its gate is always open. The standard compiler,
// which racegen falls back to, ignores it.
func coldHooksSetting(cfg *config) string {
	if cfg.mode != instrument.Dynamic || cfg.rate < 1 {
		return coldHooksEnv + "=1"
	}
	return coldHooksEnv + "=0"
}

// layoutSource is the file of the compiler's source that layoutPatch
// changes, relative to GOROOT.
var layoutSource = filepath.Join("src", "cmd", "compile", "internal", "ssa", "layout.go")

// layoutPatch is the change to cmd/compile/internal/ssa/layout.go.
var layoutPatch = []sourceEdit{
	{
		anchor: "\npackage ssa\n",
		text:   "\nimport \"os\" // racegen\n",
	},
	{
		anchor: "\t// Initialize indegree of each block\n",
		before: true,
		text: `	// racegen: a hook's slow path is scheduled last, as exit blocks
	// are.
	racegenCold := f.newSparseSet(f.NumBlocks())
	defer f.retSparseSet(racegenCold)
	racegenColdBlocks(f, racegenCold)
	for _, id := range racegenCold.contents() {
		exit.add(id)
	}

`,
	},
	{
		anchor: "\t\t\tzerodegree = zerodegree[:len(zerodegree)-1]\n",
		text: `			if racegenCold.contains(cid) {
				continue // racegen: scheduled with the exit blocks
			}
`,
	},
	{
		anchor: "\t\t\tsuccs = succs[:len(succs)-1]\n",
		text: `			if racegenCold.contains(cid) {
				continue // racegen: scheduled with the exit blocks
			}
`,
	},
	{
		anchor: "\nfunc layoutRegallocOrder(f *Func) []*Block {",
		before: true,
		text: `
// racegenColdBlocks adds to cold the slow paths of f's hooks, if every
// other block can be reached from the entry without them: the layout
// schedules a block only after one of its predecessors, and the slow
// paths come last.
func racegenColdBlocks(f *Func, cold *sparseSet) {
	if !racegenColdHooks {
		return
	}
	for _, b := range f.Blocks {
		if racegenColdBlock(b) {
			cold.add(b.ID)
		}
	}
	if cold.size() == 0 {
		return
	}
	seen := f.newSparseSet(f.NumBlocks())
	defer f.retSparseSet(seen)
	stack := []*Block{f.Entry}
	seen.add(f.Entry.ID)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range b.Succs {
			if c := e.b; !seen.contains(c.ID) && !cold.contains(c.ID) {
				seen.add(c.ID)
				stack = append(stack, c)
			}
		}
	}
	if seen.size()+cold.size() != len(f.Blocks) {
		cold.clear()
	}
}

// racegenColdBlock reports whether b is reached only by the unlikely edge
// of a branch and calls racegen's detector runtime: the slow path of an
// inlined hook.
func racegenColdBlock(b *Block) bool {
	if len(b.Preds) != 1 || len(b.Succs) != 1 {
		return false
	}
	p := b.Preds[0].b
	if len(p.Succs) != 2 {
		return false
	}
	switch {
	case p.Likely == BranchLikely && p.Succs[1].b == b:
	case p.Likely == BranchUnlikely && p.Succs[0].b == b:
	default:
		return false
	}
	for _, v := range b.Values {
		if a, ok := v.Aux.(*AuxCall); ok && a.Fn != nil {
			if n := a.Fn.Name; len(n) > len(racegenRuntimeDot) && n[:len(racegenRuntimeDot)] == racegenRuntimeDot {
				return true
			}
		}
	}
	return false
}

const racegenRuntimeDot = "` + instrument.RuntimePath + `."

// racegenColdHooks says whether racegen asked for hooks' slow paths last.
var racegenColdHooks = os.Getenv("` + coldHooksEnv + `") == "1"
`,
	},
}
