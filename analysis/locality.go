package analysis

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Locality is the result of the analysis of one package: which access
// expressions of its syntax are goroutine-local. It is immutable and safe
// for concurrent use.
type Locality struct {
	// local holds every access expression considered, unparenthesized,
	// with whether it is local.
	local  map[ast.Expr]bool
	nlocal int
	// results holds the names of named results in signatures, which
	// return statements write, with whether the result is local. They
	// are not access expressions of the syntax and not in stats.
	results map[*ast.Ident]bool
	// target holds the pointer, slice and map expressions evaluated in
	// the package, unparenthesized, with whether everything their values
	// may refer to is local.
	target map[ast.Expr]bool
}

// Local reports whether accesses through the access expression e can
// never take part in a data race, so that they need no race-detection
// hook: either every memory location e may denote is reachable from only
// one goroutine, or e denotes a local variable that is never written
// after its initialization, or a field or array element of one, which
// other goroutines may read but nothing writes (see the package
// documentation). For an identifier, that is the variable itself, not
// the memory its value refers to: ranging over a slice s, append(s, ...)
// or copy(s, t) touch s's backing array, which no expression denotes;
// ask LocalTarget about those. e is an *ast.Ident (a variable), an
// *ast.SelectorExpr (a field or a qualified variable), an *ast.IndexExpr
// (an array, slice or map element), an *ast.StarExpr (a pointer
// dereference), or an *ast.ParenExpr around one of them, as it appears
// in the analysed package's syntax. e may also be the name of a named
// result in a signature, which stands for the writes return statements
// make and the reads of naked returns. Local is false for expressions it
// knows nothing about, and a nil *Locality reports false for everything.
func (l *Locality) Local(e ast.Expr) bool {
	if l == nil || e == nil {
		return false
	}
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if r, ok := l.results[id]; ok {
			return r
		}
	}
	return l.local[e]
}

// LocalTarget reports whether everything the value of e may refer to is
// reachable from only one goroutine: for a pointer, its pointee; for a
// slice, its backing array; for a map, the map. It answers for the
// operands of accesses that no access expression denotes: the slice of a
// range statement, of append or copy, the map of a range, delete or
// clear. e must be an expression of the analysed package that is
// evaluated (as a value, not only by address); Local is false for others,
// and a nil *Locality reports false for everything.
func (l *Locality) LocalTarget(e ast.Expr) bool {
	if l == nil || e == nil {
		return false
	}
	return l.target[ast.Unparen(e)]
}

// stats returns how many access expressions the analysis considered and
// how many of them it found local. The access expressions considered are
// the expressions Local answers for: every identifier denoting a
// variable (other than struct fields and the parameter and result names
// of signatures), every selector denoting a struct field or a
// package-level variable, every index expression on an array, a pointer
// to an array, a slice or a map, and every pointer dereference, each
// counted once per occurrence in the syntax, including those whose value
// is only taken by address.
func (l *Locality) stats() (considered, local int) {
	if l == nil {
		return 0, 0
	}
	return len(l.local), l.nlocal
}

// allocKey identifies the allocations of a source variable: go/ssa gives
// every Alloc of a variable (several for per-iteration loop variables) the
// variable's position and name.
type allocKey struct {
	pos  token.Pos
	name string
}

// mapper maps access expressions to the SSA instructions and values that
// implement them.
type mapper struct {
	s    *solver
	info *types.Info

	allocs     map[allocKey][]*ssa.Alloc
	debugRefs  map[ast.Expr][]*ssa.DebugRef
	addrAt     map[token.Pos][]ssa.Value // base pointer of FieldAddr, IndexAddr, Lookup, MapUpdate
	valueAt    map[token.Pos]bool        // Field or Index of a non-addressable value
	derefAt    map[token.Pos][]ssa.Value // address operand of explicit loads and stores
	vars       *Variables
	localCache map[ast.Expr]bool
}

// newLocality maps what the solved escape analysis s and the syntax
// (vars) tell back to the access expressions of files. A nil s stands
// for an escape analysis that proves nothing local, so that only the
// syntax answers.
func newLocality(s *solver, vars *Variables, files []*ast.File, info *types.Info) *Locality {
	m := &mapper{
		s:          s,
		info:       info,
		allocs:     make(map[allocKey][]*ssa.Alloc),
		debugRefs:  make(map[ast.Expr][]*ssa.DebugRef),
		addrAt:     make(map[token.Pos][]ssa.Value),
		valueAt:    make(map[token.Pos]bool),
		derefAt:    make(map[token.Pos][]ssa.Value),
		vars:       vars,
		localCache: make(map[ast.Expr]bool),
	}
	if s != nil {
		for _, fn := range s.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					m.index(instr)
				}
			}
		}
	}
	l := &Locality{
		local:   make(map[ast.Expr]bool),
		results: make(map[*ast.Ident]bool),
		target:  make(map[ast.Expr]bool),
	}
	for e, refs := range m.debugRefs {
		if tv, ok := info.Types[e]; ok && tv.IsValue() && isReference(tv.Type) {
			l.target[e] = m.allTargetsLocal(refs)
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool { return visitAccess(m, l, n) })
	}
	for _, ok := range l.local {
		if ok {
			l.nlocal++
		}
	}
	return l
}

// visitAccess records n in l if it is an access expression and tells
// ast.Inspect whether to descend.
func visitAccess(m *mapper, l *Locality, n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FuncType:
		// Parameter and result names are declarations, not accesses.
		visitResults(m, l, n)
		return false
	case *ast.FuncDecl:
		// Neither are receiver names.
		visitResults(m, l, n.Type)
		if n.Body != nil {
			ast.Inspect(n.Body, func(n ast.Node) bool { return visitAccess(m, l, n) })
		}
		return false
	case *ast.SelectorExpr:
		if m.isAccess(n) {
			l.local[n] = m.localExpr(n)
		}
		// The selected name is part of this access; only the operand
		// is an access of its own.
		ast.Inspect(n.X, func(n ast.Node) bool { return visitAccess(m, l, n) })
		return false
	case ast.Expr:
		if m.isAccess(n) {
			l.local[n] = m.localExpr(n)
		}
	}
	return true
}

// visitResults records in l whether the named results of ft are local.
func visitResults(m *mapper, l *Locality, ft *ast.FuncType) {
	if ft.Results == nil {
		return
	}
	for _, field := range ft.Results.List {
		for _, id := range field.Names {
			if m.isAccess(id) {
				l.results[id] = m.localExpr(id)
			}
		}
	}
}

// index records what instr tells about the access expressions at its
// position.
func (m *mapper) index(instr ssa.Instruction) {
	switch i := instr.(type) {
	case *ssa.Alloc:
		// All of them: fn.Locals omits those that go/ssa moved to the
		// heap.
		k := allocKey{i.Pos(), i.Comment}
		m.allocs[k] = append(m.allocs[k], i)
	case *ssa.DebugRef:
		m.debugRefs[i.Expr] = append(m.debugRefs[i.Expr], i)
	case *ssa.FieldAddr:
		m.addrAt[i.Pos()] = append(m.addrAt[i.Pos()], i.X)
	case *ssa.IndexAddr:
		m.addrAt[i.Pos()] = append(m.addrAt[i.Pos()], i.X)
	case *ssa.Lookup:
		m.addrAt[i.Pos()] = append(m.addrAt[i.Pos()], i.X)
	case *ssa.MapUpdate:
		m.addrAt[i.Pos()] = append(m.addrAt[i.Pos()], i.Map)
	case *ssa.Field:
		m.valueAt[i.Pos()] = true
	case *ssa.Index:
		m.valueAt[i.Pos()] = true
	case *ssa.UnOp:
		if i.Op == token.MUL {
			m.derefAt[i.Pos()] = append(m.derefAt[i.Pos()], i.X)
		}
	case *ssa.Store:
		m.derefAt[i.Pos()] = append(m.derefAt[i.Pos()], i.Addr)
	}
}

// isAccess reports whether e is an access expression the analysis answers
// for (see stats).
func (m *mapper) isAccess(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := m.info.ObjectOf(e).(*types.Var)
		return ok && !v.IsField() && e.Name != "_"
	case *ast.SelectorExpr:
		if sel, ok := m.info.Selections[e]; ok {
			return sel.Kind() == types.FieldVal
		}
		_, ok := m.info.Uses[e.Sel].(*types.Var)
		return ok // qualified identifier pkg.V
	case *ast.IndexExpr:
		tv, ok := m.info.Types[e.X]
		if !ok || !tv.IsValue() {
			return false // generic instantiation
		}
		switch CoreType(tv.Type).(type) {
		case *types.Array, *types.Slice, *types.Map:
			return true
		case *types.Pointer:
			return true // pointer to array
		}
	case *ast.StarExpr:
		tv, ok := m.info.Types[e]
		return ok && tv.IsValue()
	}
	return false
}

// localExpr reports whether the access expression e is local, memoized.
func (m *mapper) localExpr(e ast.Expr) bool {
	e = ast.Unparen(e)
	if r, ok := m.localCache[e]; ok {
		return r
	}
	m.localCache[e] = false // no cycles in syntax, but be safe
	r := m.compute(e)
	m.localCache[e] = r
	return r
}

func (m *mapper) compute(e ast.Expr) bool {
	if v := m.vars.Root(e); v != nil && (m.vars.Unaliased(v) || m.vars.readOnly(v)) {
		// Reached only by the statements naming it, or only ever read
		// after its initialization, which happens before any other
		// goroutine can see it (see Variables).
		return true
	}
	if m.s == nil {
		return false
	}
	switch e := e.(type) {
	case *ast.Ident:
		return m.localVar(e)
	case *ast.SelectorExpr:
		if _, ok := m.info.Selections[e]; !ok {
			return false // package-level variable
		}
		// go/ssa gives the FieldAddr of an explicit selection, and of
		// the implicit selections of embedded fields leading to it, the
		// selector's or the operand's position; the field is local if
		// every struct it may lie in is.
		return m.allLocal(m.addrAt[e.Sel.Pos()]) && !m.valueAt[e.Sel.Pos()]
	case *ast.IndexExpr:
		// IndexAddr, Lookup and MapUpdate carry the '[' position.
		return m.allLocal(m.addrAt[e.Lbrack]) && !m.valueAt[e.Lbrack]
	case *ast.StarExpr:
		return m.localDeref(e)
	}
	return false
}

// localVar reports whether the variable id denotes lives in local memory:
// either it is a local variable that go/ssa lifted to registers (it is
// never address-taken or captured), or every allocation of it is local.
func (m *mapper) localVar(id *ast.Ident) bool {
	v, ok := m.info.ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.Parent() == nil {
		return false // package-level (or unknown) variable
	}
	allocs := m.allocs[allocKey{v.Pos(), v.Name()}]
	if len(allocs) == 0 {
		// No allocation: lifted, provided the function using id was
		// built at all, which its DebugRef proves.
		return len(m.debugRefs[id]) > 0
	}
	for _, a := range allocs {
		if !m.s.local(a) {
			return false
		}
	}
	return true
}

// localDeref reports whether the pointer dereference e is local: every
// value its operand may have, and every address the loads and stores at
// its position use, points only into local objects.
func (m *mapper) localDeref(e *ast.StarExpr) bool {
	if !m.allTargetsLocal(m.debugRefs[ast.Unparen(e.X)]) {
		return false
	}
	for _, a := range m.derefAt[e.Star] {
		if !m.s.local(a) {
			return false
		}
	}
	return true
}

// allTargetsLocal reports whether refs are all value references whose
// values point only into local objects.
func (m *mapper) allTargetsLocal(refs []*ssa.DebugRef) bool {
	for _, r := range refs {
		if r.IsAddr || !m.s.local(r.X) {
			return false
		}
	}
	return len(refs) > 0
}

// isReference reports whether values of type t refer to memory: pointers,
// slices and maps.
func isReference(t types.Type) bool {
	switch CoreType(t).(type) {
	case *types.Pointer, *types.Slice, *types.Map:
		return true
	}
	return false
}

// allLocal reports whether vs is not empty and all of its values point
// only into local objects.
func (m *mapper) allLocal(vs []ssa.Value) bool {
	if len(vs) == 0 {
		return false
	}
	for _, v := range vs {
		if !m.s.local(v) {
			return false
		}
	}
	return true
}
