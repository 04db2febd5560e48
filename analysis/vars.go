package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
)

// Variables is what the syntax of one package tells, without the escape
// analysis, about the memory of its variables: which variable an access
// expression's memory belongs to, which local variables nothing but the
// statements naming them can reach (Unaliased), and which are never
// written after their initialization (see readOnly). It is immutable and
// safe for concurrent use.
//
// An unaliased variable's accesses cannot race: only its own goroutine
// runs the statements that name it, and no pointer or closure lets
// another goroutine reach it. Every access expression whose memory is
// such a variable, or a field or array element of one, is local. This is
// also what the Go compiler sees: it keeps such variables in registers
// or on the stack, and go build -race does not instrument them.
type Variables struct {
	pkg  *types.Package
	info *types.Info
	// addressed holds the local and package-level variables whose
	// address, or the address of a part of which, may be taken: by &,
	// by slicing a value that may be an array, or by calling a pointer
	// method on it, or taking one as a method value.
	addressed map[*types.Var]bool
	// captured holds the local variables a function literal refers to
	// that are declared outside of it.
	captured map[*types.Var]bool
	// once holds the local variables whose declaration writes them once
	// and for all (see readOnly), written the local and package-level
	// variables that something else writes.
	once, written map[*types.Var]bool
	// outside names the package-level variables that code the
	// analysis does not see may write (see outsideNames); nil means
	// all of them.
	outside map[string]bool
}

// NewVariables collects what the syntax of the package pkg, made of files
// and type-checked with info, tells about its variables. info must record
// Types, Defs, Uses, Implicits and Selections, and, for read-only
// variables declared by range clauses, FileVersions.
func NewVariables(files []*ast.File, pkg *types.Package, info *types.Info) *Variables {
	vs := &Variables{
		pkg:       pkg,
		info:      info,
		addressed: make(map[*types.Var]bool),
		captured:  make(map[*types.Var]bool),
		once:      make(map[*types.Var]bool),
		written:   make(map[*types.Var]bool),
		outside:   outsideNames(files),
	}
	for _, f := range files {
		vs.visitFile(f)
	}
	return vs
}

// Root returns the variable whose own memory the expression e denotes or
// is certainly part of: e itself if it names a variable, the operand's
// variable if e selects a field without going through a pointer or
// indexes a value whose type is certainly an array (see CoreType), each
// possibly parenthesized. It returns nil if e's memory belongs to no
// variable or to one it cannot be sure of: a pointer's target, a slice
// or map element, a field reached through a pointer, a value computed
// by a call, an element of a type parameter that may or may not be an
// array.
func (vs *Variables) Root(e ast.Expr) *types.Var {
	return root(vs.info, e, false)
}

// Unaliased reports whether v is a local variable of the package whose
// memory only the statements that name it can reach: its address, and
// the address of every part of it, is never taken, and no function
// literal that it is declared outside of refers to it. Package-level
// variables and struct fields never are.
func (vs *Variables) Unaliased(v *types.Var) bool {
	return vs.isLocal(v) && !vs.addressed[v] && !vs.captured[v]
}

// readOnly reports whether v is a variable of the package that is never
// written after its initialization. Such a variable cannot take part in a
// data race, even when a closure that captures it runs on another
// goroutine: its one write, the initialization, happens when its
// declaration executes, before any closure that refers to it can exist,
// and a closure reaches another goroutine only through a go statement or
// another synchronizing operation (which orders the write before
// everything the other goroutine does), or through a racy publication
// (which is a race on the memory holding the closure, reported there).
// All later accesses are reads, and reads do not race with each other.
// The Go compiler relies on the same property when it captures such
// variables by value.
//
// A variable qualifies only if it is declared in one of these ways, each
// of which writes it once, when the declaration executes:
//
//   - a parameter or receiver (not a result: return statements write
//     named results);
//   - var x T or var x = e;
//   - x := e, including in the header of an if, switch, for or select
//     case (a variable that := redeclares is written, not declared);
//   - the key or value of a for range clause with :=, if the file has
//     Go 1.22 or later semantics, where every iteration has its own
//     variable (before, the range clause wrote one variable every
//     iteration);
//   - the variable a type switch guard declares in each clause.
//
// and it is written nowhere: no assignment (=, op=, ++, --, a range
// clause with =, a select case with =, a redeclaration by :=) has it, or
// a field or array element of it, on its left, and its address is never
// taken (see Unaliased). Reflection and unsafe can only write a variable
// through its address. Where a type parameter may be an array, indexing
// and slicing count as if it were one.
//
// A package-level variable qualifies on the same terms, its declaration
// being its one write, which package initialization makes before main
// runs, and so before any goroutine but the one initializing the
// package, with one exception: a goroutine already running during
// package initialization (started by an initializer or init function, of
// this package or another) can race with a later initialization, and
// that race is not reported. Other packages could write an exported
// variable, so only unexported ones qualify, and none that a
// //go:linkname directive names or that the package's assembly may write
// (see outsideNames): the code writing them is code the analysis does not
// see. A write in an init function counts as a write like any other.
func (vs *Variables) readOnly(v *types.Var) bool {
	if vs.isPackageLevel(v) {
		return !v.Exported() && vs.outside != nil && !vs.outside[v.Name()] && !vs.written[v] && !vs.addressed[v]
	}
	return vs.once[v] && !vs.written[v] && !vs.addressed[v]
}

// isPackageLevel reports whether v is a package-level variable of the
// package.
func (vs *Variables) isPackageLevel(v *types.Var) bool {
	return v != nil && v.Pkg() == vs.pkg && Global(v)
}

// isLocal reports whether v is a variable declared in a function of the
// package.
func (vs *Variables) isLocal(v *types.Var) bool {
	return v != nil && !v.IsField() && v.Pkg() == vs.pkg && v.Parent() != nil && v.Parent() != vs.pkg.Scope()
}

// local returns the local variable id declares or refers to, or nil.
func (vs *Variables) local(id *ast.Ident) *types.Var {
	if v, ok := vs.info.ObjectOf(id).(*types.Var); ok && vs.isLocal(v) {
		return v
	}
	return nil
}

// root returns the variable whose own memory e denotes or is part of, as
// Variables.Root describes, with one difference if may is set: an index
// expression then counts as part of its operand whenever the operand may
// be an array (MayBeArray), not only when it certainly is one. Root's
// answer can make an access local, so it must be certain; the answer with
// may is for the operands whose address is taken or that are written,
// where missing a variable would make it look unaliased or read-only.
func root(info *types.Info, e ast.Expr, may bool) *types.Var {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			v, _ := info.ObjectOf(x).(*types.Var)
			if v != nil && v.IsField() {
				return nil
			}
			return v
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			sel, ok := info.Selections[x]
			if !ok {
				v, _ := info.Uses[x.Sel].(*types.Var) // a qualified identifier
				return v
			}
			if sel.Kind() != types.FieldVal || sel.Indirect() {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			tv, ok := info.Types[x.X]
			if !ok || !tv.IsValue() {
				return nil // an instantiation
			}
			arr := MayBeArray(tv.Type)
			if !may {
				_, arr = CoreType(tv.Type).(*types.Array)
			}
			if !arr {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// visitFile records what f tells about the variables of the package.
func (vs *Variables) visitFile(f *ast.File) {
	perIteration := PerIterationLoops(vs.pkg, vs.info, f)
	// closures holds the function literals around the node visited,
	// and the range statements over functions, whose bodies are
	// function literals too: the iterator calls them, maybe on another
	// goroutine.
	var closures []ast.Node
	var visit func(n ast.Node) bool
	inside := func(c ast.Node, nodes ...ast.Node) {
		closures = append(closures, c)
		for _, n := range nodes {
			if n != nil {
				ast.Inspect(n, visit)
			}
		}
		closures = closures[:len(closures)-1]
	}
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			vs.declare(n.Type.Params)
			inside(n, n.Body)
			return false
		case *ast.FuncDecl:
			vs.declare(n.Recv)
			vs.declare(n.Type.Params)
		case *ast.Ident:
			if v := vs.local(n); v != nil && len(closures) > 0 {
				if c := closures[len(closures)-1]; v.Pos() < c.Pos() || v.Pos() >= c.End() {
					vs.captured[v] = true
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				vs.define(id)
			}
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && n.Tok == token.DEFINE && vs.info.Defs[id] != nil {
					vs.define(id)
				} else {
					vs.mark(vs.written, lhs)
				}
			}
		case *ast.IncDecStmt:
			vs.mark(vs.written, n.X)
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE && perIteration {
					vs.define(id)
				} else if e != nil {
					vs.mark(vs.written, e)
				}
			}
			if _, fn := CoreType(vs.info.TypeOf(n.X)).(*types.Signature); fn {
				ast.Inspect(n.X, visit)
				inside(n, n.Key, n.Value, n.Body)
				return false
			}
		case *ast.TypeSwitchStmt:
			for _, s := range n.Body.List {
				if v, ok := vs.info.Implicits[s].(*types.Var); ok && vs.isLocal(v) {
					vs.once[v] = true
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				vs.mark(vs.addressed, n.X)
			}
		case *ast.SliceExpr:
			if MayBeArray(vs.info.TypeOf(n.X)) {
				vs.mark(vs.addressed, n.X)
			}
		case *ast.SelectorExpr:
			// x.M() and x.M with a pointer method on an addressable x
			// take x's address.
			if sel, ok := vs.info.Selections[n]; ok && sel.Kind() == types.MethodVal && PointerMethod(sel.Obj()) {
				if _, ptr := CoreType(vs.info.TypeOf(n.X)).(*types.Pointer); !ptr {
					vs.mark(vs.addressed, n.X)
				}
			}
		}
		return true
	}
	ast.Inspect(f, visit)
}

// declare records the parameters or receivers of fields as written once.
// Result names are not: return statements write them.
func (vs *Variables) declare(fields *ast.FieldList) {
	if fields == nil {
		return
	}
	for _, fld := range fields.List {
		for _, id := range fld.Names {
			vs.define(id)
		}
	}
}

// define records the local variable id declares as written once.
func (vs *Variables) define(id *ast.Ident) {
	if v, ok := vs.info.Defs[id].(*types.Var); ok && vs.isLocal(v) {
		vs.once[v] = true
	}
}

// mark records in set the local or package-level variable that e, an
// operand that is written or whose address is taken, is part of, if any.
func (vs *Variables) mark(set map[*types.Var]bool, e ast.Expr) {
	if v := root(vs.info, e, true); v != nil && (vs.isLocal(v) || vs.isPackageLevel(v)) {
		set[v] = true
	}
}

// perIterationLoops reports whether the range loops of f declare a new
// variable for every iteration, as they do from Go 1.22 on. An unknown
// version counts as older.
func PerIterationLoops(pkg *types.Package, info *types.Info, f *ast.File) bool {
	v := info.FileVersions[f]
	if v == "" {
		v = pkg.GoVersion()
	}
	return version.IsValid(v) && version.Compare(v, "go1.22") >= 0
}
