package instrument

import (
	"encoding/binary"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dave/dst"
)

// siteGlobal is runtime.SiteGlobal: the bit of a site's index that marks
// an access to a package-level variable. The rewriter cannot import the
// runtime, so it has a copy, which TestContractSiteGlobal checks.
const siteGlobal = 1 << 31

// siteWord is runtime.SiteWord: the bit of a site's index that tells R
// and W to record the first word of the value alone (see oneComponent).
// TestContractSiteWord checks the copy.
const siteWord = 1 << 30

// siteFlags are the bits of a site's index that describe the access
// rather than number it.
const siteFlags = siteGlobal | siteWord

// oneComponent reports whether a value of type t is, to go build -race,
// one component however wide it is: a string, slice, interface or
// complex number. The language reads and writes such a value only whole
// (its words cannot be named apart without package unsafe), so every
// access of it covers its first word, and a race on the value is a race
// on that word. R and W record that word alone (runtime.SiteWord): an
// access of one granule, which the runtime's fast path answers, rather
// than a range of two or three. cmd/compile's race instrumentation makes
// the same choice (ssagen's instrument2: "for non-composite objects we
// can write just the start address").
func oneComponent(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Interface:
		_, tparam := t.(*types.TypeParam)
		return !tparam // a type parameter's underlying type is its constraint, an interface
	case *types.Basic:
		return u.Info()&(types.IsString|types.IsComplex) != 0
	}
	return false
}

// A site is a static access given a hook.
type site struct {
	pos token.Position // in the original file, after //line directives
	fr  *fileRewriter
	fn  dst.Node // enclosing FuncDecl or FuncLit in the output, nil at package level
}

// pkgKey is the runtime's key of a package: the FNV-1a hash of its path.
func pkgKey(path string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(path))
	return h.Sum32()
}

// newSite numbers a new access site at the position of n, the original
// access expression.
func (fr *fileRewriter) newSite(n ast.Node, global bool) uint64 {
	fr.sites = append(fr.sites, site{pos: fr.fset.Position(n.Pos()), fr: fr, fn: fr.fn})
	idx := uint64(len(fr.sites))
	if global {
		idx |= siteGlobal
	}
	return uint64(fr.key)<<32 | idx
}

// addSiteTable declares the package's site table in this file:
//
//	var _ = racegenrt.RegisterSites(0xKEY, "file:line:col\tfunc\n...")
//
// A line leaves out the file, or the function, that it shares with the
// line before it (":line:col\t" for a site of the same function): sites
// are numbered in source order, so most lines share both, and the
// repeated names were most of a whole-program build's tables, 1.2 of
// the 1.6 MB of read-only data of bench/workloads/hashpool's test binary
// (racegen's runtime.RegisterSites says how they are read back).
func (fr *fileRewriter) addSiteTable() {
	names := make(map[*fileRewriter]map[dst.Node]string)
	var b strings.Builder
	var prevFile, prevFn string
	for _, s := range fr.sites {
		m, ok := names[s.fr]
		if !ok {
			m = s.fr.funcNames()
			names[s.fr] = m
		}
		fn := fr.funcPrefix() + ".init"
		if s.fn != nil {
			if n, ok := m[s.fn]; ok {
				fn = n
			}
		}
		// Before the first line prev* are "", so it loses nothing.
		file, name := s.pos.Filename, fn
		if file == prevFile {
			file = ""
		}
		if name == prevFn {
			name = ""
		}
		fmt.Fprintf(&b, "%s:%d:%d\t%s\n", file, s.pos.Line, s.pos.Column, name)
		prevFile, prevFn = s.pos.Filename, fn
	}
	call := fr.rtCall(hookRegisterSites,
		&dst.BasicLit{Kind: token.INT, Value: fmt.Sprintf("%#x", fr.key)},
		&dst.BasicLit{Kind: token.STRING, Value: strconv.Quote(b.String())})
	decl := &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{&dst.ValueSpec{
		Names:  []*dst.Ident{ident("_")},
		Values: []dst.Expr{call},
	}}}
	decl.Decs.Before = dst.EmptyLine
	decl.Decs.After = dst.EmptyLine
	fr.file.Decls = append(fr.file.Decls, decl)
}

// funcNames names the functions of the rewritten file as a traceback
// does: pkg.F, pkg.T.M, pkg.(*T).M, and pkg.F.funcN for the closures of
// F, numbered in source order. Closures the rewriter added are counted, as
// the compiler counts them. Closures of package-level initializers are
// named pkg.init.funcN, counted in this file only (best effort).
func (fr *fileRewriter) funcNames() map[dst.Node]string {
	names := make(map[dst.Node]string)
	path := fr.funcPrefix()
	var lits func(n dst.Node, outer string, count *int)
	lits = func(n dst.Node, outer string, count *int) {
		dst.Inspect(n, func(c dst.Node) bool {
			if c == n {
				return true
			}
			if fl, ok := c.(*dst.FuncLit); ok {
				*count++
				name := fmt.Sprintf("%s.func%d", outer, *count)
				names[fl] = name
				lits(fl.Body, name, count)
				return false
			}
			return true
		})
	}
	initCount := 0
	for _, d := range fr.file.Decls {
		fd, ok := d.(*dst.FuncDecl)
		if !ok {
			lits(d, path+".init", &initCount)
			continue
		}
		name := path + "." + fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = path + "." + recvName(fd.Recv.List[0].Type) + "." + fd.Name.Name
		}
		if fd.Type.TypeParams != nil || (fd.Recv != nil && hasTypeArgs(fd.Recv.List[0].Type)) {
			// Generic functions appear as pkg.F[...] in tracebacks.
			if fd.Recv == nil {
				name += "[...]"
			}
		}
		names[fd] = name
		if fd.Body != nil {
			count := 0
			lits(fd.Body, name, &count)
		}
	}
	return names
}

// funcPrefix returns the package part of function names in tracebacks:
// the import path, or "main" for a command.
func (p *pkgRewriter) funcPrefix() string {
	if p.pkg.Name() == "main" {
		return "main"
	}
	return p.pkg.Path()
}

// recvName renders a receiver type as a traceback does: T or (*T), with
// [...] for a generic type.
func recvName(e dst.Expr) string {
	ptr := false
	if s, ok := e.(*dst.StarExpr); ok {
		ptr, e = true, s.X
	}
	name := "?"
	switch t := e.(type) {
	case *dst.Ident:
		name = t.Name
	case *dst.IndexExpr:
		if id, ok := t.X.(*dst.Ident); ok {
			name = id.Name + "[...]"
		}
	case *dst.IndexListExpr:
		if id, ok := t.X.(*dst.Ident); ok {
			name = id.Name + "[...]"
		}
	}
	if ptr {
		return "(*" + name + ")"
	}
	return name
}

func hasTypeArgs(e dst.Expr) bool {
	if s, ok := e.(*dst.StarExpr); ok {
		e = s.X
	}
	switch e.(type) {
	case *dst.IndexExpr, *dst.IndexListExpr:
		return true
	}
	return false
}

// accessHook returns the hook of a read (or a write) at the access a,
// which may be shared: R or W in dynamic mode. In static and collide
// modes a sampled site gets SR or SW, an unsampled one CR or CW if
// Config.Checks asks for them, and nil, meaning no code at all,
// otherwise; the plain copy of a versioned tail (syncOnly) gets nil
// too. Every read and write hook is chosen here, so that the modes
// differ in this one place. Each call decides for one site: a caller
// that gets a hook must number the site (accessCall does both).
func (fr *fileRewriter) accessHook(a ast.Node, write bool) *hook {
	if fr.syncOnly {
		return nil
	}
	if !fr.cfg.static() {
		return pick(write, hookW, hookR)
	}
	pos := fr.fset.Position(a.Pos())
	if fr.sample(pos) {
		fr.sampled = append(fr.sampled, fmt.Sprintf("%s:%d:%d", pos.Filename, pos.Line, pos.Column))
		return pick(write, hookSW, hookSR)
	}
	fr.unsampled++
	if fr.cfg.Checks {
		return pick(write, hookCW, hookCR)
	}
	return nil
}

// containerHooks reports whether the rewrite gives the accesses of maps'
// and slices' elements, append and copy hooks of their own: dynamic builds
// do, static and collide builds, whose sites are watched one by one, and
// the plain copies of versioned tails (syncOnly) do not.
func (fr *fileRewriter) containerHooks() bool { return !fr.cfg.static() && !fr.syncOnly }

// pick returns w if write is set, r otherwise.
func pick(write bool, w, r *hook) *hook {
	if write {
		return w
	}
	return r
}

// accessCall returns the hook call of a read (or a write) of *p, of type
// t, at the access a, as accessHook chooses it, or nil if the site gets
// no code.
func (fr *fileRewriter) accessCall(p dst.Expr, t types.Type, a ast.Node, global, write bool) *dst.CallExpr {
	h := fr.accessHook(a, write)
	if h == nil {
		return nil
	}
	return fr.accessHookCall(h, p, t, fr.newSite(a, global))
}

// accessStmt is accessCall as a statement, or nil.
func (fr *fileRewriter) accessStmt(p dst.Expr, t types.Type, a ast.Node, global, write bool) dst.Stmt {
	if c := fr.accessCall(p, t, a, global, write); c != nil {
		return exprStmt(c)
	}
	return nil
}

// containerHook returns the call h(x, site) of the hook h that records
// the accesses of x's map or slice at a, or nil where containerHooks
// says there are no such hooks.
func (fr *fileRewriter) containerHook(h *hook, x dst.Expr, a ast.Node) *dst.CallExpr {
	if !fr.containerHooks() {
		return nil
	}
	return fr.rtCall(h, x, siteLit(fr.newSite(a, false)))
}

// sample decides whether the access site at pos is sampled. The decision
// depends on the seed, the package, the file's base name (not where the
// module lives), the position and, for several sites at one position (x
// in x = x + 1 is read and written), their order; so it is the same in
// every build of the same source.
func (fr *fileRewriter) sample(pos token.Position) bool {
	file := filepath.Base(pos.Filename)
	key := fmt.Sprintf("%s:%d:%d", file, pos.Line, pos.Column)
	if fr.ordinal == nil {
		fr.ordinal = make(map[string]int)
	}
	ord := fr.ordinal[key]
	fr.ordinal[key]++
	rate := fr.cfg.Rate
	if fr.cfg.SiteRate != nil {
		rate = fr.cfg.SiteRate(pos)
	}
	return siteChoice(fr.cfg.Seed, fr.pkg.Path(), file, pos.Line, pos.Column, ord) < rate
}

// siteChoice maps a site to a number in [0, 1), uniformly for distinct
// inputs: FNV-1a of the fields, then a 64-bit finalizer (MurmurHash3's
// fmix64), since FNV alone spreads sites on neighbouring lines poorly in
// its high bits. Rate 1 samples every site and rate 0 none.
func siteChoice(seed int64, pkgPath, file string, line, col, ord int) float64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	put(uint64(seed))
	h.Write([]byte(pkgPath))
	h.Write([]byte{0})
	h.Write([]byte(file))
	h.Write([]byte{0})
	put(uint64(line))
	put(uint64(col))
	put(uint64(ord))
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return float64(x>>11) / (1 << 53)
}
