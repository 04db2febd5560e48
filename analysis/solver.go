package analysis

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// maxRounds bounds the fixpoint iteration. The transfer functions are
// monotone over finite sets, so the iteration terminates; the bound only
// guards against a bug turning into a hang (the caller then reports
// nothing local).
const maxRounds = 10000

// A solver computes, for the functions of one SSA package, which abstract
// objects each value may point to, which objects each object may contain
// pointers to, and which objects escape their goroutine.
//
// All facts only grow, and every rule is applied again until nothing
// changes, so the result is the least solution of the rules below; each
// rule over-approximates what the instruction can do at run time.
type solver struct {
	funcs []*ssa.Function        // analysed functions, with bodies
	inSet map[*ssa.Function]bool // members of funcs
	sites map[*ssa.Function][]*ssa.MakeClosure
	// internal functions are called only directly from this package, so
	// what they return flows only to the call sites seen here.
	internal map[*ssa.Function]bool

	objs    []object
	site    map[ssa.Value]objID // allocation sites and parameters
	pts     map[ssa.Value]set   // what each value may point to
	cont    []set               // what each object may contain pointers to
	escaped []bool              // objects reachable from other goroutines
	written []bool              // parameter objects the function may store into
	ret     map[*ssa.Function]set

	// contFlowed holds how many of an object's contents flowContents
	// has passed on to a value, contSunk how many sinkContents has
	// marked escaped.
	contFlowed map[valueObj]int
	contSunk   map[objID]int

	unknownSet set
	changed    bool
}

// newSolver prepares the analysis of funcs, which must be closed under
// AnonFuncs. outside names the package-level functions code outside the
// analysis may call; nil means any function.
func newSolver(funcs []*ssa.Function, outside map[string]bool) *solver {
	s := &solver{
		funcs:      funcs,
		inSet:      make(map[*ssa.Function]bool),
		sites:      make(map[*ssa.Function][]*ssa.MakeClosure),
		internal:   make(map[*ssa.Function]bool),
		site:       make(map[ssa.Value]objID),
		pts:        make(map[ssa.Value]set),
		ret:        make(map[*ssa.Function]set),
		contFlowed: make(map[valueObj]int),
		contSunk:   make(map[objID]int),
		unknownSet: set{unknown: {}},
	}
	s.newObject(object{}) // unknown
	s.escaped[unknown] = true
	for _, fn := range funcs {
		s.inSet[fn] = true
	}
	taken := make(map[*ssa.Function]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				s.prepare(instr, taken)
			}
		}
	}
	for _, fn := range funcs {
		s.internal[fn] = isInternal(fn) && !taken[fn] && outside != nil && !outside[fn.Name()]
		if s.internal[fn] {
			// All callers are analysed; the parameters point to what
			// the call sites pass (and to nothing if there are none).
			continue
		}
		for _, p := range fn.Params {
			// A parameter points to one object, which may hold
			// pointers to the other, which stands for all the rest of
			// the memory reachable from the parameter and so contains
			// itself. Both are memory the caller may share with
			// anybody, which every rule assumes of a parameter's
			// objects: they are never local, a load from them may
			// give unknown pointers, and what is stored into them
			// escapes (load, store, local).
			in := s.newObject(object{param: p})
			o := s.newObject(object{param: p, inner: in})
			s.site[p] = o
			add(&s.cont[o], in)
			add(&s.cont[in], in)
			s.pts[p] = set{o: {}}
		}
		for _, fv := range fn.FreeVars {
			if len(s.sites[fn]) == 0 {
				// Created somewhere the analysis does not see.
				s.pts[fv] = set{unknown: {}}
			}
		}
	}
	return s
}

// prepare creates the objects of allocation sites, records closure
// creation sites, and notes functions used as values rather than called.
func (s *solver) prepare(instr ssa.Instruction, taken map[*ssa.Function]bool) {
	switch i := instr.(type) {
	case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan:
		s.site[i.(ssa.Value)] = s.newObject(object{site: i.(ssa.Value)})
	case *ssa.MakeClosure:
		s.site[i] = s.newObject(object{site: i})
		if fn, ok := i.Fn.(*ssa.Function); ok {
			s.sites[fn] = append(s.sites[fn], i)
		}
	case *ssa.Convert:
		if isStringSliceConv(i) {
			s.site[i] = s.newObject(object{site: i})
		}
	case *ssa.Call:
		if b, ok := i.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
			s.site[i] = s.newObject(object{site: i})
		}
	}
	if _, ok := instr.(*ssa.DebugRef); ok {
		return // mentions functions without using them
	}
	var callee *ssa.Value
	if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
		callee = &c.Common().Value
	}
	for _, op := range instr.Operands(nil) {
		if fn, ok := (*op).(*ssa.Function); ok && op != callee {
			taken[fn] = true
		}
	}
}

// isInternal reports whether fn can only be called from this package by
// name: an unexported package-level function that is not generic.
func isInternal(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Parent() != nil || fn.Synthetic != "" || fn.TypeParams().Len() > 0 || fn.TypeArgs() != nil {
		return false
	}
	if obj.Exported() || obj.Name() == "main" || obj.Name() == "init" {
		return false
	}
	return fn.Signature.Recv() == nil
}

func (s *solver) newObject(o object) objID {
	s.objs = append(s.objs, o)
	s.cont = append(s.cont, nil)
	s.escaped = append(s.escaped, false)
	s.written = append(s.written, false)
	return objID(len(s.objs) - 1)
}

// solve iterates the rules to their fixpoint.
func (s *solver) solve() error {
	for round := 0; ; round++ {
		if round == maxRounds {
			return fmt.Errorf("no fixpoint after %d rounds", maxRounds)
		}
		s.changed = false
		for _, fn := range s.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					s.visit(instr)
				}
			}
		}
		if !s.changed {
			return nil
		}
	}
}

// ptsOf returns what v may point to. The result must not be modified.
func (s *solver) ptsOf(v ssa.Value) set {
	switch v.(type) {
	case *ssa.Global:
		return s.unknownSet
	case *ssa.Const, *ssa.Function, *ssa.Builtin:
		// Constants are nil or not pointers, and a function value
		// without a closure refers to no memory.
		return nil
	}
	return s.pts[v]
}

// flow records that v may point to everything in ps.
func (s *solver) flow(v ssa.Value, ps set) {
	if v == nil || len(ps) == 0 {
		return
	}
	dst := s.pts[v]
	if addAll(&dst, ps) {
		s.pts[v] = dst
		s.changed = true
	}
}

// escape marks o and everything reachable from it as escaped.
func (s *solver) escape(o objID) {
	work := []objID{o}
	for len(work) > 0 {
		o := work[len(work)-1]
		work = work[:len(work)-1]
		if s.escaped[o] {
			continue
		}
		s.escaped[o] = true
		s.changed = true
		for c := range s.cont[o] {
			work = append(work, c)
		}
	}
}

// sink marks everything ps points to as escaped.
func (s *solver) sink(ps set) {
	for o := range ps {
		s.escape(o)
	}
}

// store records that the memory of every object in addr may hold pointers
// to everything in val.
func (s *solver) store(addr, val set) {
	for o := range addr {
		if s.objs[o].param != nil {
			// The caller's memory may be shared; whatever is stored
			// there escapes, but for what it may hold already: the
			// parameter's inner object, which stands for all the
			// parameter reaches beyond o, and what earlier stores
			// made escape. Storing those back, as s.key = s.buf does
			// in a method, makes nothing reachable that was not. The
			// caller must also learn that its memory now holds
			// pointers it does not know.
			for c := range val {
				if _, held := s.cont[o][c]; !held {
					s.escape(c)
				}
			}
			if len(val) > 0 && !s.written[o] {
				s.written[o] = true
				s.changed = true
			}
		}
		for c := range val {
			if add(&s.cont[o], c) {
				s.changed = true
				if s.escaped[o] {
					s.escape(c)
				}
			}
		}
	}
}

// load returns what a pointer loaded from memory in addr may point to.
// An escaped object may hold anything other goroutines store there.
func (s *solver) load(addr set) set {
	var r set
	for o := range addr {
		if s.escaped[o] || s.objs[o].param != nil {
			add(&r, unknown)
		}
		if !s.escaped[o] {
			addAll(&r, s.cont[o])
		}
	}
	return r
}

// local reports whether everything v may point to is a non-escaped
// allocation of this package. A value that points to nothing known is not
// local: the analysis only vouches for memory it has seen allocated.
func (s *solver) local(v ssa.Value) bool {
	ps := s.ptsOf(v)
	if len(ps) == 0 {
		return false
	}
	for o := range ps {
		if o == unknown || s.escaped[o] || s.objs[o].param != nil {
			return false
		}
	}
	return true
}

// visit applies the rule of one instruction.
func (s *solver) visit(instr ssa.Instruction) {
	switch i := instr.(type) {
	case *ssa.DebugRef, *ssa.If, *ssa.Jump, *ssa.RunDefers, *ssa.BinOp:
		// No pointer flow. (String concatenation creates immutable
		// strings, which are not memory the instrumenter checks.)
	case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan:
		v := i.(ssa.Value)
		s.flow(v, set{s.site[v]: {}})
	case *ssa.MakeClosure:
		o := s.site[i]
		s.flow(i, set{o: {}})
		fn, _ := i.Fn.(*ssa.Function)
		for k, b := range i.Bindings {
			ps := s.ptsOf(b)
			s.store(set{o: {}}, ps)
			if s.inSet[fn] && k < len(fn.FreeVars) {
				s.flow(fn.FreeVars[k], ps)
			} else {
				// The body is not analysed; it may do anything with
				// what it captures.
				s.sink(ps)
			}
		}
	case *ssa.Phi:
		for _, e := range i.Edges {
			s.flow(i, s.ptsOf(e))
		}
	case *ssa.FieldAddr:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.IndexAddr:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.Field:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.Index:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.Slice:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.SliceToArrayPointer:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.ChangeType:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.ChangeInterface:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.MakeInterface:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.TypeAssert:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.Extract:
		s.flow(i, s.ptsOf(i.Tuple))
	case *ssa.Range:
		s.flow(i, s.ptsOf(i.X))
	case *ssa.MultiConvert:
		// Conversions between type parameters may turn pointers into
		// integers; give up on the operand.
		s.sink(s.ptsOf(i.X))
		s.flow(i, s.unknownSet)
	case *ssa.Convert:
		s.convert(i)
	case *ssa.UnOp:
		switch i.Op {
		case token.MUL:
			s.flow(i, s.load(s.ptsOf(i.X)))
		case token.ARROW:
			s.flow(i, s.unknownSet)
		}
	case *ssa.Lookup:
		s.flow(i, s.load(s.ptsOf(i.X)))
	case *ssa.Next:
		s.flow(i, s.load(s.ptsOf(i.Iter)))
	case *ssa.Select:
		for _, st := range i.States {
			if st.Send != nil {
				s.sink(s.ptsOf(st.Send))
			}
		}
		s.flow(i, s.unknownSet)
	case *ssa.Store:
		s.store(s.ptsOf(i.Addr), s.ptsOf(i.Val))
	case *ssa.MapUpdate:
		m := s.ptsOf(i.Map)
		s.store(m, s.ptsOf(i.Key))
		s.store(m, s.ptsOf(i.Value))
	case *ssa.Send:
		s.sink(s.ptsOf(i.X))
	case *ssa.Panic:
		// A recovered panic value may end up anywhere.
		s.sink(s.ptsOf(i.X))
	case *ssa.Return:
		s.ret1(i)
	case *ssa.Go:
		// Everything the new goroutine receives is shared: the function
		// value (with its captured variables), receiver and arguments.
		c := i.Common()
		s.sink(s.ptsOf(c.Value))
		for _, a := range c.Args {
			s.sink(s.ptsOf(a))
		}
		if callee := c.StaticCallee(); !c.IsInvoke() && s.internal[callee] && len(callee.Params) == len(c.Args) {
			// Internal functions see nothing but their call sites.
			for k, a := range c.Args {
				s.flow(callee.Params[k], s.ptsOf(a))
			}
		}
	case *ssa.Call:
		s.call(i, i.Common())
	case *ssa.Defer:
		// A deferred call runs on the same goroutine, like a call.
		s.call(nil, i.Common())
	default:
		// Not modelled: whatever it touches escapes, and whatever it
		// produces is unknown.
		if v, ok := instr.(ssa.Value); ok {
			s.flow(v, s.unknownSet)
		}
		for _, op := range instr.Operands(nil) {
			if *op != nil {
				s.sink(s.ptsOf(*op))
			}
		}
	}
}

// ret1 applies the rule of a return instruction. Objects of the caller
// (parameter objects) are recorded so that call sites can tell which
// arguments come back; fresh objects flow to the call sites of internal
// functions and escape from all others, whose callers are unknown.
func (s *solver) ret1(i *ssa.Return) {
	fn := i.Parent()
	for _, r := range i.Results {
		for o := range s.ptsOf(r) {
			if p := s.objs[o].param; (p != nil && p.Parent() == fn) || s.internal[fn] {
				rs := s.ret[fn]
				if add(&rs, o) {
					s.ret[fn] = rs
					s.changed = true
				}
			} else {
				s.escape(o)
			}
		}
	}
}

// convert applies the rule of a conversion.
func (s *solver) convert(i *ssa.Convert) {
	from, to := i.X.Type().Underlying(), i.Type().Underlying()
	switch {
	case isTypeParam(i.X.Type()) || isTypeParam(i.Type()):
		s.sink(s.ptsOf(i.X))
		s.flow(i, s.unknownSet)
	case isStringSliceConv(i):
		// string(b), []byte(s), []rune(s): a fresh copy without pointers.
		s.flow(i, set{s.site[i]: {}})
	case isPointer(from) && !isPointer(to):
		// unsafe.Pointer to uintptr: the analysis cannot follow
		// integers, so the pointee escapes.
		s.sink(s.ptsOf(i.X))
	case !isPointer(from) && isPointer(to):
		// uintptr to unsafe.Pointer: could point anywhere.
		s.flow(i, s.unknownSet)
	default:
		s.flow(i, s.ptsOf(i.X))
	}
}

func isTypeParam(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.TypeParam)
	return ok
}

// isPointer reports whether the underlying type u is a pointer or
// unsafe.Pointer.
func isPointer(u types.Type) bool {
	switch u := u.(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// isStringSliceConv reports whether c converts between a string and a
// byte or rune slice, which copies.
func isStringSliceConv(c *ssa.Convert) bool {
	if isTypeParam(c.X.Type()) || isTypeParam(c.Type()) {
		return false
	}
	from, to := c.X.Type().Underlying(), c.Type().Underlying()
	_, fromSlice := from.(*types.Slice)
	_, toSlice := to.(*types.Slice)
	return (isString(from) && toSlice) || (fromSlice && isString(to))
}

func isString(u types.Type) bool {
	b, ok := u.(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
