package instrument

import (
	"fmt"

	"github.com/dave/dst"
)

// The hooks are the functions of the detector runtime that rewritten code
// calls. This file declares every one of them, once, with what the
// rewriter relies on: its name, how many type parameters the runtime
// declares (every call infers them), and the kinds of its parameters and
// results. The rewriter names a hook only through these declarations
// (fileRewriter.rt takes a *hook), so it cannot emit a runtime function
// that this file does not list, and contract_test.go checks each
// declaration against the runtime's source.

// A hook is a function of the detector runtime.
type hook struct {
	name     string
	tparams  int    // type parameters, which every call infers
	params   []kind // the parameters, in order
	variadic bool   // the last parameter is variadic
	results  []kind

	// access marks a hook that records memory accesses and
	// synchronizes nothing, which a versioned loop may call (see
	// version.go).
	access bool

	// post is the method that the rewritten code calls on the hook's
	// result once the operation is done, if any.
	post string

	// spread marks a hook that takes the results of one call as its
	// arguments, as in IO2(f()).
	spread bool

	// split, for a wrapper of a lock's method, says how a statement
	// that calls it is written out instead (lockstmt.go).
	split *split
}

// A split is how a statement that calls a lock's wrapper is written out:
// the method, called as the program called it, and the detector's half,
// called only when SyncHot reports that the detector must see the
// operation: after the method for a lock, which acquires, and before it
// for an unlock, which releases.
type split struct {
	method string
	half   *hook
	after  bool
	// deferred is the wrapper's form for a deferred call of an unlock,
	// which takes the calling function's Ctx as its half does; nil for
	// a lock.
	deferred *hook
}

// splitHook declares name, the wrapper of a lock's method, with its
// split: the method and the hook half, called after the method if after.
// An unlock's (after is false) is declared with its deferred form too,
// name followed by "In".
func splitHook(name, method, half string, after bool) *hook {
	sp := &split{method: method, half: newHook(hook{name: half, params: ptrCtx}), after: after}
	if !after {
		sp.deferred = newHook(hook{name: name + "In", params: ptrCtx})
	}
	return newHook(hook{name: name, params: justPtr, split: sp})
}

// hookSyncHot reports whether a lock statement's half must be called.
var hookSyncHot = newHook(hook{name: "SyncHot", results: justBool})

func (h *hook) String() string { return h.name }

// takesCtx reports whether h's last parameter is the calling function's
// Ctx (ctx.go).
func (h *hook) takesCtx() bool {
	return len(h.params) > 0 && h.params[len(h.params)-1] == ctxKind
}

// accepts reports whether a call of h with args passes the parameters h
// declares.
func (h *hook) accepts(args []dst.Expr) bool {
	switch n := len(args); {
	case n == len(h.params):
		return true
	case h.variadic:
		return n >= len(h.params)-1
	case n == 1 && h.spread:
		_, call := unparen(args[0]).(*dst.CallExpr)
		return call
	}
	return false
}

// checkHookCalls returns an error if n, code the rewriter wrote as
// source (the timer helpers of timers.go, the models of
// runtimefuncs.go), calls a function of the runtime (imported as rt)
// that is not a hook of this file, or calls a hook with arguments it
// does not declare. Code built as a tree names hooks through
// fileRewriter.rt, which cannot do either.
func checkHookCalls(n dst.Node, rt string) error {
	var err error
	hookOf := func(e dst.Expr) (*hook, bool) {
		sel, ok := e.(*dst.SelectorExpr)
		if !ok {
			return nil, false
		}
		if x, ok := sel.X.(*dst.Ident); !ok || x.Name != rt {
			return nil, false
		}
		h := hookTable[sel.Sel.Name]
		if h == nil && err == nil {
			err = fmt.Errorf("%s.%s is not a hook", rt, sel.Sel.Name)
		}
		return h, h != nil
	}
	dst.Inspect(n, func(n dst.Node) bool {
		switch n := n.(type) {
		case *dst.SelectorExpr:
			hookOf(n)
		case *dst.CallExpr:
			if h, ok := hookOf(n.Fun); ok && !h.accepts(n.Args) && err == nil {
				err = fmt.Errorf("hook %s called with %d arguments", h, len(n.Args))
			}
		}
		return err == nil
	})
	return err
}

// A kind is what the rewriter relies on about a hook's parameter or
// result.
type kind int

const (
	anyKind     kind = iota // any type: an operand of the program's, passed through
	siteKind                // uint64: a site number (see newSite)
	uintptrKind             // uintptr: an address, a size or a program counter
	pointerKind             // a pointer
	objectKind              // unsafe.Pointer: an object's address, which the call keeps alive and a stack move adjusts
	keyKind                 // uint32: a package's key (see pkgKey)
	stringKind              // string
	boolKind                // bool
	intKind                 // int
	funcKind                // a function
	ctxKind                 // *Ctx: the calling function's Ctx (ctx.go), or nil
	runKind                 // uint64: the key of a versioned copy's run (see runKey)
)

// CtxType is the runtime's type of an instrumented function's cache of
// its goroutine's detector state, which R and W, the lock statements'
// halves and the channel hooks take (ctx.go). It is the one runtime type
// the rewritten code names.
const CtxType = "Ctx"

// CtxName is the name of the variable in which an instrumented function
// declares its Ctx, or its prefix if the function has one of that name
// already. racegen's compiler gives an inlined function's Ctx the
// caller's (cmd/racegen/inlinectx.go) and finds them by it.
const CtxName = "racegenctx"

// hookTable holds every hook by name.
var hookTable = make(map[string]*hook)

// newHook declares the hook h.
func newHook(h hook) *hook {
	if hookTable[h.name] != nil {
		panic(fmt.Sprintf("instrument: hook %s declared twice", h.name))
	}
	hookTable[h.name] = &h
	return &h
}

// Shorthands for the declarations below.
var (
	ptrSite    = []kind{pointerKind, siteKind}
	ptrSiteCtx = []kind{pointerKind, siteKind, ctxKind}
	ptrCtx     = []kind{pointerKind, ctxKind}
	valueSite  = []kind{anyKind, siteKind}
	justPtr    = []kind{pointerKind}
	justAny    = []kind{anyKind}
	justBool   = []kind{boolKind}
	justFunc   = []kind{funcKind}
	justObject = []kind{objectKind}
)

// IdleHook is the name of the hook that chooses between a versioned
// loop's copies (version.go): if racegenrt.Idle() { the original loop }
// else { its instrumented copies }. racegen's compiler charges such an
// if statement what the original costs (cmd/racegen/inliner.go).
// IdleRunHook is its form for loops that run no instrumented code but
// their own (analysis.Computations.Leaf), which takes the key of the
// instrumented copy's run (runKey).
const (
	IdleHook    = "Idle"
	IdleRunHook = "IdleRun"
)

// Accesses: read x is *R(&x, site), write x is *W(&x, site) = v (access.go);
// in static and collide modes a sampled site gets SR or SW, an unsampled
// one CR or CW (sites.go). Maps, slices, append and copy have their own.
var (
	hookR            = newHook(hook{name: "R", tparams: 1, params: ptrSiteCtx, results: justPtr, access: true})
	hookW            = newHook(hook{name: "W", tparams: 1, params: ptrSiteCtx, results: justPtr, access: true})
	hookSR           = newHook(hook{name: "SR", tparams: 1, params: ptrSite, results: justPtr})
	hookSW           = newHook(hook{name: "SW", tparams: 1, params: ptrSite, results: justPtr})
	hookCR           = newHook(hook{name: "CR", tparams: 1, params: ptrSite, results: justPtr})
	hookCW           = newHook(hook{name: "CW", tparams: 1, params: ptrSite, results: justPtr})
	hookMapR         = newHook(hook{name: "MapR", tparams: 3, params: valueSite, results: justAny, access: true})
	hookMapW         = newHook(hook{name: "MapW", tparams: 3, params: valueSite, results: justAny, access: true})
	hookSliceR       = newHook(hook{name: "SliceR", tparams: 2, params: valueSite, results: justAny, access: true})
	hookSliceW       = newHook(hook{name: "SliceW", tparams: 2, params: valueSite, results: justAny, access: true})
	hookCopy         = newHook(hook{name: "Copy", tparams: 1, params: []kind{anyKind, anyKind, siteKind}, results: []kind{intKind}, access: true})
	hookCopyString   = newHook(hook{name: "CopyString", params: []kind{anyKind, stringKind, siteKind}, results: []kind{intKind}, access: true})
	hookAppend       = newHook(hook{name: "Append", tparams: 2, params: []kind{siteKind, anyKind, anyKind}, variadic: true, results: justAny, access: true})
	hookAppendString = newHook(hook{name: "AppendString", tparams: 1, params: []kind{siteKind, anyKind, stringKind}, results: justAny, access: true})

	// hookIdle reports whether the detector is idle, for versioned
	// loops (version.go); hookIdleRun, for those that run no other
	// instrumented code (leaves), also whether FRESA skips this run of
	// the instrumented copy.
	hookIdle    = newHook(hook{name: IdleHook, results: justBool, access: true})
	hookIdleRun = newHook(hook{name: IdleRunHook, params: []kind{runKind}, results: justBool, access: true})

	// hookRegisterSites registers a package's site table (sites.go).
	hookRegisterSites = newHook(hook{name: "RegisterSites", params: []kind{keyKind, stringKind}, results: justBool})
)

// Channels (chan.go). A send or receive the runtime cannot take as a
// whole is bracketed by ChanPreSend or ChanPreRecv and the Post method
// of the handle they return.
var (
	hookChanOf      = newHook(hook{name: "ChanOf", params: justAny, results: justObject})
	hookChanPreSend = newHook(hook{name: "ChanPreSend", params: []kind{objectKind, siteKind, ctxKind}, results: justAny, post: "PostSend"})
	hookChanPreRecv = newHook(hook{name: "ChanPreRecv", params: []kind{objectKind, ctxKind}, results: justAny, post: "PostRecv"})
	hookSend        = newHook(hook{name: "Send", tparams: 1, params: []kind{anyKind, anyKind, siteKind, ctxKind}})
	hookRecv        = newHook(hook{name: "Recv", tparams: 1, params: []kind{anyKind, ctxKind}, results: justAny})
	hookRecv2       = newHook(hook{name: "Recv2", tparams: 1, params: []kind{anyKind, ctxKind}, results: []kind{anyKind, boolKind}})
	hookClose       = newHook(hook{name: "Close", tparams: 1, params: valueSite})
)

// Goroutines (gostmt.go) and the end of the program (stmt.go).
var (
	hookGoFork    = newHook(hook{name: "GoFork", results: justAny})
	hookGoStart   = newHook(hook{name: "GoStart", params: justAny})
	hookGoEnd     = newHook(hook{name: "GoEnd"})
	hookGoSpawn   = newHook(hook{name: "GoSpawn", results: justAny})
	hookGoSpawned = newHook(hook{name: "GoSpawned", params: justAny})
	hookMainDone  = newHook(hook{name: "MainDone"})
)

// replacedFuncs are the hooks that replace functions whose
// synchronization the detector must see, by the function's package path
// and name (replaceObj). They have the signatures of the originals, so
// that they serve as values too.
var replacedFuncs = map[string]*hook{
	"sync.OnceFunc":   newHook(hook{name: "OnceFunc", params: justFunc, results: justFunc}),
	"sync.OnceValue":  newHook(hook{name: "OnceValue", tparams: 1, params: justFunc, results: justFunc}),
	"sync.OnceValues": newHook(hook{name: "OnceValues", tparams: 2, params: justFunc, results: justFunc}),
}

// entryHooks are the hooks that functions of the standard library start
// with, by the function's package path and name (entryHook in
// directives.go): the function's one parameter p is assigned H(p) first.
// os.Exit asks ExitCode for the status to exit with.
var entryHooks = map[string]*hook{
	"os.Exit": newHook(hook{name: "ExitCode", params: []kind{intKind}, results: []kind{intKind}}),
}

// Finalizers and cleanups, which the Go runtime runs (callbacks.go).
var (
	hookFinalizer       = newHook(hook{name: "Finalizer", tparams: 1, params: justFunc, results: justFunc})
	hookFinalizerResult = newHook(hook{name: "FinalizerResult", tparams: 2, params: justFunc, results: justFunc})
	hookCleanup         = newHook(hook{name: "Cleanup", tparams: 1, params: justFunc, results: justFunc})
)

// Hooks that only code the rewriter writes as source calls: the timer
// helpers (timers.go) and the models of the Go runtime's functions for
// reflect (runtimefuncs.go). Their sources name other hooks of this file
// too; checkHookCalls checks them all.
var (
	_ = newHook(hook{name: "TimerArm", tparams: 1, params: justPtr})
	_ = newHook(hook{name: "TimerFunc", tparams: 1, params: []kind{pointerKind, funcKind}, results: justFunc})
	_ = newHook(hook{name: "ChanPreClose", params: []kind{objectKind, siteKind}})
	_ = newHook(hook{name: "AcquireAll"})
)

// Calls into C (cgo.go).
var (
	hookIO1       = newHook(hook{name: "IO1", tparams: 1, params: justAny, results: justAny})
	hookIO2       = newHook(hook{name: "IO2", tparams: 2, params: []kind{anyKind, anyKind}, results: []kind{anyKind, anyKind}, spread: true})
	hookIO3       = newHook(hook{name: "IO3", tparams: 3, params: []kind{anyKind, anyKind, anyKind}, results: []kind{anyKind, anyKind, anyKind}, spread: true})
	hookIOAcquire = newHook(hook{name: "IOAcquire"})
	hookIORelease = newHook(hook{name: "IORelease"})
)

// raceHooks are the hooks that the functions of internal/race become,
// by their names there (annotations.go). ReadObjectPC and WriteObjectPC
// become ReadRange and WriteRange.
var raceHooks = map[string]*hook{
	"Acquire":      newHook(hook{name: "Acquire", params: justObject}),
	"Release":      newHook(hook{name: "Release", params: justObject}),
	"ReleaseMerge": newHook(hook{name: "ReleaseMerge", params: justObject}),
	"Read":         newHook(hook{name: "Read", params: []kind{objectKind, uintptrKind, siteKind}, access: true}),
	"Write":        newHook(hook{name: "Write", params: []kind{objectKind, uintptrKind, siteKind}, access: true}),
	"ReadPC":       newHook(hook{name: "ReadPC", params: []kind{objectKind, uintptrKind, uintptrKind, siteKind}}),
	"WritePC":      newHook(hook{name: "WritePC", params: []kind{objectKind, uintptrKind, uintptrKind, siteKind}}),
	"ReadRange":    newHook(hook{name: "ReadRange", params: []kind{objectKind, uintptrKind, siteKind}, access: true}),
	"WriteRange":   newHook(hook{name: "WriteRange", params: []kind{objectKind, uintptrKind, siteKind}, access: true}),
	"Errors":       newHook(hook{name: "Races", results: []kind{intKind}}),
}

// syscallHooks stand for raceHooks' Acquire and ReleaseMerge in package
// syscall, whose annotations bracket every read and write of a file or
// socket: the hooks also bring the detector's count of GC cycles up to
// date, which costs less than the system call (runtime's
// SyscallAcquire).
var syscallHooks = map[string]*hook{
	"Acquire":      newHook(hook{name: "SyscallAcquire", params: justObject}),
	"ReleaseMerge": newHook(hook{name: "SyscallReleaseMerge", params: justObject}),
}

// syncWrappers are the hooks that perform the methods of the sync types
// and tell the detector, by type and method (sync.go). Each takes the
// receiver's address first, then the method's parameters, and has the
// signature of the method expression (*T).M, so that it can stand for
// it.
var syncWrappers = map[string]map[string]*hook{
	"Mutex": {
		"Lock":    splitHook("Lock", "Lock", "Locked", true),
		"Unlock":  splitHook("Unlock", "Unlock", "Unlocking", false),
		"TryLock": newHook(hook{name: "TryLock", params: justPtr, results: justBool}),
	},
	"RWMutex": {
		"Lock":     splitHook("RWLock", "Lock", "RWLocked", true),
		"Unlock":   splitHook("RWUnlock", "Unlock", "RWUnlocking", false),
		"TryLock":  newHook(hook{name: "RWTryLock", params: justPtr, results: justBool}),
		"RLock":    splitHook("RLock", "RLock", "RLocked", true),
		"RUnlock":  splitHook("RUnlock", "RUnlock", "RUnlocking", false),
		"TryRLock": newHook(hook{name: "TryRLock", params: justPtr, results: justBool}),
		"RLocker":  hookRLocker,
	},
	"WaitGroup": {
		"Add":  newHook(hook{name: "WaitGroupAdd", params: []kind{pointerKind, intKind}}),
		"Done": newHook(hook{name: "WaitGroupDone", params: justPtr}),
		"Wait": newHook(hook{name: "WaitGroupWait", params: justPtr}),
		"Go":   newHook(hook{name: "WaitGroupGo", params: []kind{pointerKind, funcKind}}),
	},
	"Once": {
		"Do": newHook(hook{name: "OnceDo", params: []kind{pointerKind, funcKind}}),
	},
	"Cond": {
		"Wait":      newHook(hook{name: "CondWait", params: justPtr}),
		"Signal":    newHook(hook{name: "CondSignal", params: justPtr}),
		"Broadcast": newHook(hook{name: "CondBroadcast", params: justPtr}),
	},
	"Map": {
		"Load":             newHook(hook{name: "MapLoad", params: []kind{pointerKind, anyKind}, results: []kind{anyKind, boolKind}}),
		"Store":            newHook(hook{name: "MapStore", params: []kind{pointerKind, anyKind, anyKind}}),
		"LoadOrStore":      newHook(hook{name: "MapLoadOrStore", params: []kind{pointerKind, anyKind, anyKind}, results: []kind{anyKind, boolKind}}),
		"LoadAndDelete":    newHook(hook{name: "MapLoadAndDelete", params: []kind{pointerKind, anyKind}, results: []kind{anyKind, boolKind}}),
		"Delete":           newHook(hook{name: "MapDelete", params: []kind{pointerKind, anyKind}}),
		"Swap":             newHook(hook{name: "MapSwap", params: []kind{pointerKind, anyKind, anyKind}, results: []kind{anyKind, boolKind}}),
		"CompareAndSwap":   newHook(hook{name: "MapCompareAndSwap", params: []kind{pointerKind, anyKind, anyKind, anyKind}, results: justBool}),
		"CompareAndDelete": newHook(hook{name: "MapCompareAndDelete", params: []kind{pointerKind, anyKind, anyKind}, results: justBool}),
		"Range":            newHook(hook{name: "MapRange", params: []kind{pointerKind, funcKind}}),
		"Clear":            newHook(hook{name: "MapClear", params: justPtr}),
	},
	"Pool": {
		"Get": newHook(hook{name: "PoolGet", params: justPtr, results: justAny}),
		"Put": newHook(hook{name: "PoolPut", params: []kind{pointerKind, anyKind}}),
	},
}

// hookRLocker is RWMutex.RLocker's wrapper, which cannot stand for the
// method expression (see syncMethodExpr).
var hookRLocker = newHook(hook{name: "RLocker", params: justPtr, results: justAny})

// lockerHooks perform Lock and Unlock called through a sync.Locker
// interface or type parameter, by method (lockerMethod).
var lockerHooks = map[string]*hook{
	"Lock":   newHook(hook{name: "LockerLock", params: justAny}),
	"Unlock": newHook(hook{name: "LockerUnlock", params: justAny}),
}

// The operations of sync/atomic have wrappers in the runtime
// (runtime/atomic_gen.go) that take the site of the access last:
// atomic.AddInt64(&x, 1) becomes AtomicAddInt64(&x, 1, site) and
// x.Add(1), for an atomic.Int64 x, AtomicInt64Add(&x, 1, site).
//
// atomicFuncs are the wrappers of the functions, by the function's name
// (AddInt64); atomicMethods those of the methods, by type and method
// (Int64.Add).
var atomicFuncs, atomicMethods = atomicHooks()

func atomicHooks() (funcs, methods map[string]*hook) {
	type op struct {
		name     string
		operands int  // parameters after the address
		result   bool // returns a value
	}
	intOps := []op{{"Load", 0, true}, {"Store", 1, false}, {"Swap", 1, true}, {"CompareAndSwap", 2, true},
		{"Add", 1, true}, {"And", 1, true}, {"Or", 1, true}}
	ptrOps := intOps[:4]
	wrapper := func(name string, tparams int, o op) *hook {
		h := hook{name: "Atomic" + name, tparams: tparams, params: []kind{pointerKind}}
		for range o.operands {
			h.params = append(h.params, anyKind)
		}
		h.params = append(h.params, siteKind)
		if o.result {
			h.results = justAny
		}
		return newHook(h)
	}
	funcs = make(map[string]*hook)
	methods = make(map[string]*hook)
	for _, t := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr"} {
		for _, o := range intOps {
			funcs[o.name+t] = wrapper(o.name+t, 0, o)
			methods[t+"."+o.name] = wrapper(t+o.name, 0, o)
		}
	}
	for _, o := range ptrOps {
		funcs[o.name+"Pointer"] = wrapper(o.name+"Pointer", 0, o)
		methods["Bool."+o.name] = wrapper("Bool"+o.name, 0, o)
		methods["Pointer."+o.name] = wrapper("Pointer"+o.name, 1, o)
		methods["Value."+o.name] = wrapper("Value"+o.name, 0, o)
	}
	return funcs, methods
}
