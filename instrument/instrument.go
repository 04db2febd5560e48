package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"

	"github.com/racegen/racegen/analysis"
)

// RuntimePath is the import path of the detector runtime that rewritten
// code calls.
const RuntimePath = "github.com/racegen/racegen/runtime"

// Config configures the rewriting of one package.
type Config struct {
	// Local, if non-nil, reports whether the memory an access expression denotes is
	// provably reachable from only one goroutine; such accesses get no hook.
	// analysis.Locality.Local is meant for it. Whether or not it is set,
	// accesses to local variables that no pointer and no closure reaches
	// (analysis.Variables.Unaliased) get no hook and are not access sites.
	Local func(e ast.Expr) bool

	// LocalTarget, if non-nil, reports whether all the memory that the
	// value of e refers to (a pointer's pointee, a slice's array, a map)
	// is provably reachable from only one goroutine. It is asked about
	// the operands of range, append, copy, delete, clear, len and string
	// conversions, whose accesses no access expression denotes.
	LocalTarget func(e ast.Expr) bool

	// Mode selects the detector the code is rewritten for: Dynamic (the
	// zero Mode) gives every shared access a hook (R, W, MapR, Append,
	// ...); Static (CRSampler) and Collide (DataCollider) sample access
	// sites at build time instead. There a sampled site's read or write
	// hook becomes SR or SW, which arms a watchpoint, an unsampled one
	// becomes CR or CW or nothing (see Checks), and the hooks of maps,
	// slices, append and copy, which have no static counterpart, are left
	// out. Synchronization, goroutine and I/O hooks are the same in every
	// mode: the runtime turns them into ticks of a scalar clock.
	Mode Mode

	// Rate is the share, from 0 to 1, of the access sites that static and
	// collide modes sample.
	Rate float64

	// Seed seeds the choice of the sampled sites. A site is sampled if a
	// hash of the seed, the package path, the file's base name, the
	// site's line and column (and its ordinal among sites at that
	// position) falls below Rate: the same seed picks the same sites in
	// every build, and editing one function does not change the choice
	// elsewhere in it unless lines move.
	Seed int64

	// SiteRate, if not nil, gives each access site its own sampling
	// rate in place of Rate, from a profile of how often each site runs
	// (cmd/racegen's -profile): see StaticRates.
	SiteRate func(pos token.Position) float64

	// Checks gives the unsampled sites of static and collide modes a
	// check against the armed software watchpoints (CR, CW). Without it
	// they get no code at all, as hardware watchpoints need none.
	Checks bool
}

// static reports whether c samples sites at build time.
func (c *Config) static() bool { return c.Mode.sampled() }

// Result is a rewritten package.
type Result struct {
	Files   map[string][]byte // original file name (as in fset) -> rewritten source, for every input file
	Sites   int               // access sites given a hook
	Dropped int               // access sites left alone because Local said so
	// Redundant counts the access sites whose hook an earlier access
	// of the same call made redundant (analysis.Variables.Redundant):
	// they have no hook and are not in Sites.
	Redundant int

	// Sampled lists the positions ("file:line:col") of the access
	// sites that static and collide modes sampled, in rewriting order.
	Sampled []string
	// Unsampled counts the access sites that static and collide modes
	// did not sample: they got CR or CW (and count in Sites) with
	// Config.Checks, no code otherwise.
	Unsampled int
}

// Package rewrites the files of one type-checked package. info must have Types, Defs,
// Uses, Implicits, Selections, Instances and Scopes.
//
// Package never modifies files or info. A file it cannot rewrite makes it
// return an error naming that file; no partial result is returned.
func Package(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, cfg *Config) (res *Result, err error) {
	if pkg == nil || info == nil || fset == nil {
		return nil, fmt.Errorf("instrument: missing package, type information or file set")
	}
	if info.Types == nil || info.Uses == nil || info.Defs == nil || info.Selections == nil {
		return nil, fmt.Errorf("instrument %s: types.Info lacks Types, Defs, Uses or Selections", pkg.Path())
	}
	if cfg == nil {
		cfg = &Config{}
	}
	if !cfg.Mode.valid() {
		return nil, fmt.Errorf("instrument %s: unknown mode %v", pkg.Path(), cfg.Mode)
	}
	defer func() {
		// The rewriter is large and its input is arbitrary Go: a bug in
		// it must become an error of this package, not a crash of the
		// caller.
		if e := recover(); e != nil {
			res, err = nil, fmt.Errorf("instrument %s: internal error: %v", pkg.Path(), e)
		}
	}()

	p := &pkgRewriter{
		fset: fset,
		pkg:  pkg,
		info: info,
		cfg:  cfg,
		vars: analysis.NewVariables(files, pkg, info),
		comp: analysis.NewComputations(files, info),
		key:  pkgKey(pkg.Path()),
	}
	p.initTimers(files)
	var frs []*fileRewriter
	for _, f := range files {
		name := fset.File(f.Pos()).Name()
		fr, err := p.rewriteFile(f)
		if err != nil {
			return nil, fmt.Errorf("instrument %s: %w", name, err)
		}
		frs = append(frs, fr)
	}
	if err := p.declareTimerHelpers(frs, files); err != nil {
		return nil, fmt.Errorf("instrument %s: %w", pkg.Path(), err)
	}
	if len(p.sites) > 0 && len(frs) > 0 {
		frs[0].addSiteTable()
	}
	res = &Result{Files: make(map[string][]byte), Sites: len(p.sites) - p.redundant, Dropped: p.dropped, Redundant: p.redundant, Sampled: p.sampled, Unsampled: p.unsampled}
	for _, fr := range frs {
		src, err := fr.print()
		if err != nil {
			return nil, fmt.Errorf("instrument %s: %w", fr.name, err)
		}
		res.Files[fr.name] = src
	}
	return res, nil
}

// A pkgRewriter holds what the rewriting of the files of one package
// shares: type information, what the syntax tells about the package's
// variables, and the site table.
type pkgRewriter struct {
	fset      *token.FileSet
	pkg       *types.Package
	info      *types.Info
	cfg       *Config
	vars      *analysis.Variables
	comp      *analysis.Computations // which loops and functions only compute (version.go)
	key       uint32
	sites     []site
	dropped   int
	redundant int            // access sites whose hook was dropped as redundant
	sampled   []string       // positions of the sites sampled in static modes
	unsampled int            // sites not sampled in static modes
	ordinal   map[string]int // access sites seen so far at each position, in static modes
	timers    timerState     // the timer helpers (timers.go)
}

// A fileRewriter rewrites one file.
type fileRewriter struct {
	*pkgRewriter
	name   string
	dec    *decorator.Decorator
	file   *dst.File
	names  map[string]bool // identifiers used in the file, to avoid when inventing names
	rtName string          // the name the runtime is imported as
	rtUsed bool
	// ctxName is the name of the functions' Ctx (ctx.go), "" until an
	// access needs one.
	ctxName string
	ntemp   int
	fn      dst.Node               // innermost enclosing FuncDecl or FuncLit of the node being rewritten
	main    bool                   // rewriting the body of func main of package main
	origin  map[dst.Node]token.Pos // position in the original of nodes the rewriter made
	simple  bool                   // rewriting a statement that must stay one simple statement
	io      *ioState               // what the statement being rewritten needs for its I/O calls; nil outside statements
	// ioDirect is the call of the go or defer statement being rewritten,
	// which runs later than the statement and is not bracketed for I/O.
	ioDirect *ast.CallExpr
	// hooked holds the access hooks given so far in the function
	// declaration being rewritten, nil where they are not noted
	// (redundant.go).
	hooked map[ast.Expr]*hookedAccess
	// outer holds the loops that only compute whose instrumented copy is
	// being rewritten, innermost last (see hoist_eligible.go and hoist_emit.go).
	outer []*outerLoop
	// ranged holds the element writes whose hook is a range hook
	// before their loop (wholerange.go).
	ranged map[ast.Expr]bool
	// syncOnly is set while the plain copy of a versioned tail is
	// rewritten (tail.go): its synchronization gets its hooks, its
	// accesses none.
	syncOnly bool
}

func (p *pkgRewriter) rewriteFile(f *ast.File) (*fileRewriter, error) {
	dec := decorator.NewDecorator(p.fset)
	df, err := dec.DecorateFile(f)
	if err != nil {
		return nil, fmt.Errorf("decorating: %w", err)
	}
	name := p.fset.File(f.Pos()).Name()
	fr := &fileRewriter{
		pkgRewriter: p,
		name:        name,
		dec:         dec,
		file:        df,
		ranged:      make(map[ast.Expr]bool),
		names:       fileNames(f),
	}
	for _, n := range p.timers.names {
		fr.names[n] = true // a timer helper already named
	}
	fr.rtName = fr.freshName("racegenrt")
	fr.raceEnabled()
	fr.rewriteDecls()
	return fr, nil
}

// print renders the rewritten file, adding the runtime import if the file
// uses it.
func (fr *fileRewriter) print() ([]byte, error) {
	fr.declareCtxs()
	fr.blankUnusedImports()
	if fr.rtUsed {
		fr.addImport()
	}
	fr.addLineDirectives()
	r := decorator.NewRestorer()
	af, err := r.RestoreFile(fr.file)
	if err != nil {
		return nil, fmt.Errorf("restoring: %w", err)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, r.Fset, af); err != nil {
		return nil, fmt.Errorf("printing: %w", err)
	}
	return buf.Bytes(), nil
}

// addImport adds the runtime import in a declaration of its own after the
// existing imports, which keeps import "C" and its preamble intact.
func (fr *fileRewriter) addImport() {
	fr.addImportDecl(&dst.ImportSpec{
		Name: dst.NewIdent(fr.rtName),
		Path: &dst.BasicLit{Kind: token.STRING, Value: fmt.Sprintf("%q", RuntimePath)},
	})
}

// addImportDecl adds spec in an import declaration of its own after the
// existing imports.
func (fr *fileRewriter) addImportDecl(spec *dst.ImportSpec) {
	decl := &dst.GenDecl{Tok: token.IMPORT, Specs: []dst.Spec{spec}}
	decl.Decs.Before = dst.NewLine
	decl.Decs.After = dst.EmptyLine
	i := 0
	for i < len(fr.file.Decls) {
		if g, ok := fr.file.Decls[i].(*dst.GenDecl); ok && g.Tok == token.IMPORT {
			i++
			continue
		}
		break
	}
	decls := append([]dst.Decl{}, fr.file.Decls[:i]...)
	decls = append(decls, decl)
	fr.file.Decls = append(decls, fr.file.Decls[i:]...)
}

// blankUnusedImports renames to _ the imports that the rewriting left
// unused, such as sync/atomic when every atomic call became a runtime
// call. The package is still initialized, as it was.
func (fr *fileRewriter) blankUnusedImports() {
	used := make(map[string]bool)
	dst.Inspect(fr.file, func(n dst.Node) bool {
		if sel, ok := n.(*dst.SelectorExpr); ok {
			if id, ok := sel.X.(*dst.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	for path, name := range fr.importNames() {
		if used[name] || path == "C" {
			continue
		}
		for _, imp := range fr.file.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == path {
				if imp.Name == nil {
					imp.Name = dst.NewIdent("_")
				} else if imp.Name.Name == name {
					imp.Name.Name = "_"
				}
			}
		}
	}
}
