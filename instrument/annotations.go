package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// The standard library tells go build -race about synchronization and
// memory accesses the race detector cannot see by itself, through the
// functions of internal/race, guarded by the constant race.Enabled:
// package syscall makes every read of a file or socket acquire, and every
// write release, one object standing for all I/O; iter orders the
// goroutines of a Pull iterator; testing fails a test during which a race
// was reported (race.Errors); reflect reads a map it iterates. In an
// ordinary build race.Enabled is false and the functions do nothing.
//
// In a package racegen instruments, race.Enabled becomes true and every
// call of internal/race becomes a call of the detector runtime with the
// same meaning, so that the standard library tells racegen what it tells
// -race:
//
//	race.Acquire(p)        racegenrt.Acquire(p)
//	race.Release(p)        racegenrt.Release(p)
//	race.ReleaseMerge(p)   racegenrt.ReleaseMerge(p)
//	race.Read(p)           racegenrt.Read(p, 1, site)
//	race.ReadPC(p, c, pc)  racegenrt.ReadPC(p, c, pc, site)
//	race.ReadRange(p, n)   racegenrt.ReadRange(p, uintptr(n), site)
//	race.Errors()          racegenrt.Races()
//
// and likewise for the writes. In package syscall, Acquire and
// ReleaseMerge become SyscallAcquire and SyscallReleaseMerge instead
// (syscallHooks). The program counters that ReadPC and
// WritePC take are -race's means of naming the access in its reports;
// racegen's site names the call instead.

// raceAnnotations is the import path of the annotations.
const raceAnnotations = "internal/race"

// Code outside the standard library annotates too, under the race build
// tag, which racegen's builds give it (cmd/racegen's racetag.go): it calls
// the functions that package runtime declares in race builds only, such
// as runtime.RaceAcquire in golang.org/x/sys/unix. They are the
// annotations of internal/race by another name, and become the same
// hooks.
//
// runtimeRaceFuncs are those functions, by their names in package
// runtime, with their parameter lists: an address, and for the ranges a
// length. RaceDisable and RaceEnable are left out (see raceCall), so that
// a call of them fails to compile rather than being guessed at.
var runtimeRaceFuncs = map[string]int{
	"RaceAcquire": 1, "RaceRelease": 1, "RaceReleaseMerge": 1,
	"RaceRead": 1, "RaceWrite": 1,
	"RaceReadRange": 2, "RaceWriteRange": 2,
	"RaceErrors": 0,
}

// DeclareRaceFuncs declares in rt, package runtime as an ordinary build
// has it, the functions of runtimeRaceFuncs, as code built with the race
// build tag sees them; the instrumenter replaces their calls by hooks.
// It changes rt, which a type checker of such code must import alone.
func DeclareRaceFuncs(rt *types.Package) {
	ptr := func() *types.Var { return types.NewParam(token.NoPos, rt, "addr", types.Typ[types.UnsafePointer]) }
	for name, n := range runtimeRaceFuncs {
		if rt.Scope().Lookup(name) != nil {
			continue
		}
		var params, results *types.Tuple
		switch n {
		case 0:
			results = types.NewTuple(types.NewParam(token.NoPos, rt, "", types.Typ[types.Int]))
		case 1:
			params = types.NewTuple(ptr())
		case 2:
			params = types.NewTuple(ptr(), types.NewParam(token.NoPos, rt, "len", types.Typ[types.Int]))
		}
		sig := types.NewSignatureType(nil, nil, nil, params, results, false)
		rt.Scope().Insert(types.NewFunc(token.NoPos, rt, name, sig))
	}
}

// raceFuncName returns the name in internal/race of fn, a function of
// internal/race or one of runtimeRaceFuncs, and true; or false if fn is
// neither.
func raceFuncName(fn *types.Func) (string, bool) {
	if fn.Pkg() == nil {
		return "", false
	}
	switch fn.Pkg().Path() {
	case raceAnnotations:
		return fn.Name(), true
	case "runtime":
		if _, ok := runtimeRaceFuncs[fn.Name()]; ok {
			return strings.TrimPrefix(fn.Name(), "Race"), true
		}
	}
	return "", false
}

// raceEnabled replaces, in the file, every use of race.Enabled with true.
func (fr *fileRewriter) raceEnabled() {
	dstutil.Apply(fr.file, func(c *dstutil.Cursor) bool {
		sel, ok := c.Node().(*dst.SelectorExpr)
		if !ok {
			return true
		}
		a, ok := fr.dec.Ast.Nodes[sel].(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if obj, ok := fr.info.Uses[a.Sel].(*types.Const); ok && obj.Pkg() != nil &&
			obj.Pkg().Path() == raceAnnotations && obj.Name() == "Enabled" {
			t := ident("true")
			moveDecs(t, sel)
			c.Replace(t)
		}
		return true
	}, nil)
}

// raceCall rewrites x, a call of a function of internal/race, or returns
// nil if x calls something else.
func (fr *fileRewriter) raceCall(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	fn, ok := fr.calleeObj(a.Fun).(*types.Func)
	if !ok {
		return nil
	}
	name, ok := raceFuncName(fn)
	if !ok {
		return nil
	}
	fr.rvalues(x.Args)
	site := func() dst.Expr { return siteLit(fr.newSite(a, false)) }
	one := func() dst.Expr { return &dst.BasicLit{Kind: token.INT, Value: "1"} }
	h := raceHooks[name]
	var n *dst.CallExpr
	switch name {
	// Addresses stay pointers (objectKind): the pointer keeps the object
	// alive for the detector's lookup (runtime's lookupSync), and a move
	// of the goroutine's stack adjusts it (runtime's Read).
	case "Acquire", "Release", "ReleaseMerge":
		if s := syscallHooks[name]; s != nil && fr.pkg.Path() == "syscall" {
			h = s
		}
		n = fr.rtCall(h, x.Args[0])
	case "Read", "Write":
		n = fr.rtCall(h, x.Args[0], one(), site())
	case "ReadPC", "WritePC":
		n = fr.rtCall(h, x.Args[0], x.Args[1], x.Args[2], site())
	case "ReadRange", "WriteRange":
		size := &dst.CallExpr{Fun: ident("uintptr"), Args: []dst.Expr{x.Args[1]}}
		n = fr.rtCall(h, x.Args[0], size, site())
	case "ReadObjectPC", "WriteObjectPC":
		// ReadObjectPC(t *abi.Type, addr, callerpc, pc)
		h = raceHooks["ReadRange"]
		if name == "WriteObjectPC" {
			h = raceHooks["WriteRange"]
		}
		size := &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.Clone(x.Args[0]).(dst.Expr), Sel: ident("Size")}}
		n = fr.rtCall(h, x.Args[1], size, site())
	case "Errors":
		n = fr.rtCall(h)
	default:
		// Disable and Enable make -race ignore a goroutine's
		// operations; the packages racegen instruments do not call
		// them today, and guessing would risk false reports.
		panic(fmt.Sprintf("%s: racegen does not model %s.%s", fr.fset.Position(a.Pos()), raceAnnotations, fn.Name()))
	}
	moveDecs(n, x)
	return n
}
