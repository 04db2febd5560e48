package analysis

import "golang.org/x/tools/go/ssa"

// call applies the rule of a call or deferred call; result is the call's
// value, or nil for a deferred call.
func (s *solver) call(result ssa.Value, c *ssa.CallCommon) {
	if c.IsInvoke() {
		// An interface method may do anything with its receiver and
		// arguments.
		s.sink(s.ptsOf(c.Value))
		s.sinkArgs(c)
		s.flow(result, s.unknownSet)
		return
	}
	if b, ok := c.Value.(*ssa.Builtin); ok {
		s.builtin(result, b.Name(), c.Args)
		return
	}
	// Calling a function value does not hand it to anybody: a closure's
	// body is analysed with its captured variables wherever it runs, so
	// c.Value itself never escapes here.
	callee := c.StaticCallee()
	switch {
	case callee != nil && s.internal[callee] && len(callee.Params) == len(c.Args):
		// All callers of an internal function are analysed: arguments
		// and results flow as if the call were inlined.
		for k, a := range c.Args {
			s.flow(callee.Params[k], s.ptsOf(a))
		}
		s.flow(result, s.ret[callee])
	case callee != nil && s.inSet[callee] && len(callee.Params) == len(c.Args):
		s.summarised(result, callee, c.Args)
	case callee != nil && isPure(callee):
		// The callee keeps nothing; it may return (parts of) its
		// arguments.
		r := set{unknown: {}}
		for _, a := range c.Args {
			addAll(&r, s.ptsOf(a))
		}
		s.flow(result, r)
	default:
		s.sinkArgs(c)
		s.flow(result, s.unknownSet)
	}
}

// summarised applies the summary of an analysed callee that may also be
// called from elsewhere, for each argument and the two objects of its
// parameter (see object.param): the memory an argument points to escapes
// if the callee lets the parameter's object escape, and the memory
// reachable from it if the callee lets the inner one escape; the
// argument's memory may hold unknown pointers if the callee stores
// pointers into either; and the result may point to the arguments the
// callee returns, to what their memory holds if it returns memory
// reachable from them, and to unknown memory. (That is enough of what
// they reach: whatever escapes with the result takes the rest with it,
// and loads through it give unknown pointers.)
func (s *solver) summarised(result ssa.Value, callee *ssa.Function, args []ssa.Value) {
	rets := s.ret[callee]
	var r set
	for k, a := range args {
		p := s.site[callee.Params[k]]
		in := s.objs[p].inner
		ps := s.ptsOf(a)
		if s.escaped[p] {
			s.sink(ps)
		} else if s.escaped[in] {
			for o := range ps {
				s.sinkContents(o)
			}
		}
		if s.written[p] || s.written[in] {
			s.store(ps, s.unknownSet)
		}
		if _, ok := rets[p]; ok {
			addAll(&r, ps)
		}
		if _, ok := rets[in]; ok {
			for o := range ps {
				s.flowContents(result, o)
			}
		}
	}
	add(&r, unknown)
	s.flow(result, r)
}

// flowContents records that v may point to whatever the memory of o may
// hold, or to o itself if that is more than maxContents objects: o stands
// for what it reaches as well as any of them (what escapes with v takes
// it all along, and loads through v give unknown pointers), less
// precisely. Sets only grow, so it remembers how much of o's it has
// passed on to v and does nothing while that has not changed: call sites
// of a function that returns memory its arguments reach would otherwise
// copy those sets again every round, which made the analysis of go/types
// four times as slow.
func (s *solver) flowContents(v ssa.Value, o objID) {
	if v == nil {
		return
	}
	k := valueObj{v, o}
	n := len(s.cont[o])
	if s.contFlowed[k] == n {
		return
	}
	s.contFlowed[k] = n
	if n > maxContents {
		s.flow(v, set{o: {}})
		return
	}
	s.flow(v, s.cont[o])
}

// maxContents bounds the objects flowContents passes on.
const maxContents = 32

// sinkContents marks everything the memory of o may hold pointers to as
// escaped, remembering, as flowContents does, how many it has marked.
func (s *solver) sinkContents(o objID) {
	if n := len(s.cont[o]); s.contSunk[o] != n {
		s.contSunk[o] = n
		s.sink(s.cont[o])
	}
}

func (s *solver) sinkArgs(c *ssa.CallCommon) {
	for _, a := range c.Args {
		s.sink(s.ptsOf(a))
	}
}

// builtin applies the rule of a call to a built-in function.
func (s *solver) builtin(result ssa.Value, name string, args []ssa.Value) {
	switch name {
	case "append":
		if len(args) != 2 {
			s.sinkAll(result, args)
			return
		}
		// append may write into the first argument's array or copy it
		// into a fresh one (the call's own object).
		r := set{}
		addAll(&r, s.ptsOf(args[0]))
		elems := s.load(s.ptsOf(args[1]))
		if result != nil {
			o := s.site[result]
			add(&r, o)
			s.store(set{o: {}}, s.load(s.ptsOf(args[0])))
			s.store(set{o: {}}, elems)
		}
		s.store(s.ptsOf(args[0]), elems)
		s.flow(result, r)
	case "copy":
		if len(args) != 2 {
			s.sinkAll(result, args)
			return
		}
		s.store(s.ptsOf(args[0]), s.load(s.ptsOf(args[1])))
	case "len", "cap", "print", "println", "close", "delete", "clear",
		"real", "imag", "complex", "min", "max", "ssa:deferstack":
		// No pointer flow into memory or to the result.
	case "ssa:wrapnilchk":
		s.flow(result, s.ptsOf(args[0]))
	case "recover":
		s.flow(result, s.unknownSet)
	case "Add", "Slice", "String", "StringData", "SliceData":
		// unsafe pointer arithmetic: stays within the object in valid
		// programs, but the analysis does not vouch for it.
		r := set{unknown: {}}
		addAll(&r, s.ptsOf(args[0]))
		s.flow(result, r)
	default:
		s.sinkAll(result, args)
	}
}

// sinkAll is the rule for a call the analysis does not understand: the
// arguments escape and the result is unknown.
func (s *solver) sinkAll(result ssa.Value, args []ssa.Value) {
	for _, a := range args {
		s.sink(s.ptsOf(a))
	}
	s.flow(result, s.unknownSet)
}
