package instrument

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"

	"github.com/racegen/racegen"
)

// The contract between the rewriter and the detector runtime: the
// rewritten code calls the hooks of hooks.go with site numbers that carry
// siteGlobal, for the runtime's buildMode. The runtime is a package the
// rewriter never imports, so nothing but these tests checks that the two
// agree. They read the runtime as racegen embeds it (racegen.RuntimeFS),
// the source that every instrumented build compiles, and type-check it
// for the platform the test runs on. runtime/sites_contract_test.go
// checks the site table's text format from the runtime's side.

// A checkedRuntime is the runtime's source, type-checked.
type checkedRuntime struct {
	fset  *token.FileSet
	files []*ast.File
	imp   types.Importer // imports the runtime's dependencies, and the packages whose API hooks replace
	pkg   *types.Package
	info  *types.Info
}

// loadRuntime parses and type-checks the embedded runtime once for all
// the tests.
var loadRuntime = sync.OnceValues(func() (*checkedRuntime, error) {
	ctx := build.Default
	ctx.JoinPath = path.Join
	ctx.OpenFile = func(name string) (io.ReadCloser, error) { return racegen.RuntimeFS.Open(name) }
	ents, err := fs.ReadDir(racegen.RuntimeFS, "runtime")
	if err != nil {
		return nil, err
	}
	rt := &checkedRuntime{fset: token.NewFileSet()}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctx.MatchFile("runtime", name); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue // built for other platforms
		}
		src, err := fs.ReadFile(racegen.RuntimeFS, path.Join("runtime", name))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(rt.fset, path.Join("runtime", name), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		rt.files = append(rt.files, f)
	}
	rt.imp = importer.ForCompiler(rt.fset, "gc", nil)
	rt.pkg, rt.info, err = rt.check()
	return rt, err
})

// check type-checks the runtime's files as they are now.
func (rt *checkedRuntime) check() (*types.Package, *types.Info, error) {
	info := &types.Info{Uses: make(map[*ast.Ident]types.Object), Types: make(map[ast.Expr]types.TypeAndValue)}
	conf := types.Config{Importer: rt.imp, Sizes: types.SizesFor("gc", build.Default.GOARCH)}
	pkg, err := conf.Check(RuntimePath, rt.fset, rt.files, info)
	if err != nil {
		return nil, nil, fmt.Errorf("type-checking the embedded runtime: %w", err)
	}
	return pkg, info, nil
}

func checkedRuntimeFor(t *testing.T) *checkedRuntime {
	t.Helper()
	rt, err := loadRuntime()
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// function returns the signature of the runtime's exported function
// name, or an error that says why there is none.
func (rt *checkedRuntime) function(name string) (*types.Signature, error) {
	obj := rt.pkg.Scope().Lookup(name)
	if obj == nil || !obj.Exported() {
		return nil, fmt.Errorf("the runtime declares no exported %s", name)
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil, fmt.Errorf("the runtime's %s is a %T, not a function", name, obj)
	}
	return fn.Type().(*types.Signature), nil
}

// kindNames say what each kind requires, for messages.
var kindNames = map[kind]string{
	anyKind: "any type", siteKind: "uint64 (a site)", uintptrKind: "uintptr", pointerKind: "a pointer", objectKind: "unsafe.Pointer",
	keyKind: "uint32 (a package key)", stringKind: "string", boolKind: "bool", intKind: "int", funcKind: "a function",
	ctxKind: "*" + CtxType, runKind: "uint64 (a run key)",
}

// hasKind reports whether a parameter or result of type t is of kind k.
func hasKind(t types.Type, k kind) bool {
	basic := func(b types.BasicKind) bool { return types.Identical(t, types.Typ[b]) }
	switch k {
	case anyKind:
		return true
	case siteKind, runKind:
		return basic(types.Uint64)
	case uintptrKind:
		return basic(types.Uintptr)
	case pointerKind:
		_, ok := t.Underlying().(*types.Pointer)
		return ok
	case objectKind:
		return basic(types.UnsafePointer)
	case keyKind:
		return basic(types.Uint32)
	case stringKind:
		return basic(types.String)
	case boolKind:
		return basic(types.Bool)
	case intKind:
		return basic(types.Int)
	case funcKind:
		_, ok := t.Underlying().(*types.Signature)
		return ok
	case ctxKind:
		p, ok := t.(*types.Pointer)
		if !ok {
			return false
		}
		n, ok := p.Elem().(*types.Named)
		return ok && n.Obj().Name() == CtxType
	}
	return false
}

// checkHook returns what differs between the hook h and the runtime's
// function of that name.
func (rt *checkedRuntime) checkHook(h *hook) []string {
	sig, err := rt.function(h.name)
	if err != nil {
		return []string{err.Error()}
	}
	var bad []string
	badf := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	if n := sig.TypeParams().Len(); n != h.tparams {
		badf("%d type parameters, want %d", n, h.tparams)
	}
	if sig.Variadic() != h.variadic {
		badf("variadic is %v, want %v", sig.Variadic(), h.variadic)
	}
	tuple := func(what string, got *types.Tuple, want []kind) {
		if got.Len() != len(want) {
			badf("%d %s %s, want %d", got.Len(), what, got, len(want))
			return
		}
		for i, k := range want {
			if v := got.At(i); !hasKind(v.Type(), k) {
				badf("%s %d (%s) is %s, want %s", what, i+1, v.Name(), v.Type(), kindNames[k])
			}
		}
	}
	tuple("parameters", sig.Params(), h.params)
	tuple("results", sig.Results(), h.results)
	if h.post != "" && sig.Results().Len() == 1 {
		res := sig.Results().At(0).Type()
		m, _, _ := types.LookupFieldOrMethod(res, true, rt.pkg, h.post)
		if fn, ok := m.(*types.Func); !ok || fn.Type().(*types.Signature).Params().Len() != 0 {
			badf("its result, a %s, has no method %s()", res, h.post)
		}
	}
	return bad
}

// TestContractHooks checks every hook the rewriter can emit against the
// runtime: an exported function of that name, with the type parameters,
// parameters and results that hooks.go declares.
func TestContractHooks(t *testing.T) {
	rt := checkedRuntimeFor(t)
	if len(hookTable) < 100 {
		t.Fatalf("hooks.go declares %d hooks: the table is not filled in", len(hookTable))
	}
	for _, name := range slices.Sorted(maps.Keys(hookTable)) {
		for _, msg := range rt.checkHook(hookTable[name]) {
			t.Errorf("hook %s: %s", name, msg)
		}
	}
}

// TestContractCtxType checks that the runtime declares the type that
// instrumented functions declare their Ctx with.
func TestContractCtxType(t *testing.T) {
	rt := checkedRuntimeFor(t)
	obj, ok := rt.pkg.Scope().Lookup(CtxType).(*types.TypeName)
	if !ok || !obj.Exported() {
		t.Fatalf("the runtime declares no exported type %s", CtxType)
	}
	if !hasKind(types.NewPointer(obj.Type()), ctxKind) {
		t.Errorf("*%s is not of the kind R and W take", obj.Type())
	}
}

// TestContractGoldenHooks checks, from the output's side, that the
// rewriter calls no runtime function but the hooks of the table: every
// racegenrt.F in the golden files is one.
func TestContractGoldenHooks(t *testing.T) {
	calls := regexp.MustCompile(`\bracegenrt\.(\w+)`)
	seen := make(map[string]bool)
	err := filepath.WalkDir("testdata", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".golden") {
			return err
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		for _, m := range calls.FindAllStringSubmatch(string(src), -1) {
			if hookTable[m[1]] == nil && m[1] != CtxType && !seen[m[1]] {
				t.Errorf("%s calls racegenrt.%s, which hooks.go does not declare", name, m[1])
			}
			seen[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 20 {
		t.Errorf("the golden files call %d runtime functions; want the many they exercise", len(seen))
	}
}

// TestContractSourceHooks checks the hooks that the code the rewriter
// writes as source names, as the rewriter does when it emits it: the
// timer helpers (timers.go) and the models of reflect's runtime
// functions (runtimefuncs.go). It also makes sure that checkHookCalls
// rejects an unknown hook and a wrong number of arguments.
func TestContractSourceHooks(t *testing.T) {
	const rt = "racegenrt"
	parse := func(name, src string) *dst.File {
		t.Helper()
		f, err := decorator.Parse("package p\n\n" + src)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		return f
	}
	srcs := map[string]string{"timer helper timerChan": fmt.Sprintf(timerChanHelper, "h", "unsafe.", rt+".", "T", "E", "t")}
	for name, tmpl := range timerHelpers {
		srcs["timer helper "+name] = fmt.Sprintf(tmpl, "h", "time.", rt+".", "d", "t", "f")
	}
	for name, model := range runtimeFuncModels {
		srcs["model of "+name] = "func h() {\n" + fmt.Sprintf(model, "f(p0, p1, p2)", rt+".", "0x1") + "\n}"
	}
	for name, src := range srcs {
		if !strings.Contains(src, rt+".") {
			t.Errorf("%s calls no hook:\n%s", name, src)
		}
		if err := checkHookCalls(parse(name, src), rt); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, bad := range []string{
		"func h(t *T) { racegenrt.TimerArmed(t) }",
		"func h(t *T) { racegenrt.TimerArm(t, 0) }",
		"func h(p unsafe.Pointer) { racegenrt.ChanPreClose(uintptr(p)) }",
	} {
		if checkHookCalls(parse("bad", bad), rt) == nil {
			t.Errorf("checkHookCalls accepts %s", bad)
		}
	}
}

// methodExpr returns the signature of the method expression T.m: m's,
// with the receiver of type recv as first parameter.
func methodExpr(recv types.Type, m *types.Signature) *types.Signature {
	params := []*types.Var{types.NewParam(token.NoPos, nil, "", recv)}
	for i := 0; i < m.Params().Len(); i++ {
		params = append(params, m.Params().At(i))
	}
	return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), m.Results(), m.Variadic())
}

// withSite returns sig with a last parameter of type uint64, the site
// that the atomic wrappers take.
func withSite(sig *types.Signature) *types.Signature {
	var params []*types.Var
	for i := 0; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	params = append(params, types.NewParam(token.NoPos, nil, "site", types.Typ[types.Uint64]))
	return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic())
}

// withoutTypeParams returns sig without its type parameter list, which
// its parameters may still name: the form in which a method of an
// instance of a generic type is compared with it.
func withoutTypeParams(sig *types.Signature) *types.Signature {
	return types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic())
}

// method returns the signature of the method name of *T, for the type T
// declared in pkg, instantiated with targs if T is generic.
func method(pkg *types.Package, typ, name string, targs []types.Type) (recv types.Type, sig *types.Signature, err error) {
	tn, ok := pkg.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		return nil, nil, fmt.Errorf("%s declares no type %s", pkg.Path(), typ)
	}
	t := tn.Type()
	if len(targs) > 0 {
		if t, err = types.Instantiate(nil, t, targs, true); err != nil {
			return nil, nil, fmt.Errorf("instantiating %s.%s: %w", pkg.Path(), typ, err)
		}
	}
	if !types.IsInterface(t) {
		t = types.NewPointer(t)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, false, pkg, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil, nil, fmt.Errorf("%s has no method %s", t, name)
	}
	return t, fn.Type().(*types.Signature), nil
}

// TestContractReplacements checks that each hook that stands for a
// function or method of the standard library has the signature the
// rewriter relies on: the function's own for those that replace it as a
// value too (sync.OnceFunc), func(T) T for an entry hook of a function
// whose parameter is a T (os.Exit's ExitCode), the method expression's
// for the wrappers of sync's methods, and with a site last for those of
// sync/atomic.
func TestContractReplacements(t *testing.T) {
	rt := checkedRuntimeFor(t)
	imp := func(path string) *types.Package {
		t.Helper()
		p, err := rt.imp.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	syncPkg, atomicPkg := imp("sync"), imp("sync/atomic")
	check := func(what string, h *hook, want func(hsig *types.Signature) (*types.Signature, error)) {
		t.Helper()
		hsig, err := rt.function(h.name)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		wsig, err := want(hsig)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		got := hsig
		if hsig.TypeParams().Len() > 0 && wsig.TypeParams().Len() == 0 {
			got = withoutTypeParams(hsig)
		}
		if !types.Identical(got, wsig) {
			t.Errorf("%s: hook %s is %s, want %s", what, h.name, hsig, wsig)
		}
	}
	for key, h := range replacedFuncs {
		i := strings.LastIndex(key, ".")
		check(key, h, func(*types.Signature) (*types.Signature, error) {
			fn, ok := imp(key[:i]).Scope().Lookup(key[i+1:]).(*types.Func)
			if !ok {
				return nil, fmt.Errorf("no function %s", key)
			}
			return fn.Type().(*types.Signature), nil
		})
	}
	for key, h := range entryHooks {
		i := strings.LastIndex(key, ".")
		check(key+"'s entry", h, func(*types.Signature) (*types.Signature, error) {
			fn, ok := imp(key[:i]).Scope().Lookup(key[i+1:]).(*types.Func)
			if !ok {
				return nil, fmt.Errorf("no function %s", key)
			}
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() != 1 {
				return nil, fmt.Errorf("%s has %d parameters, and an entry hook takes the one", key, sig.Params().Len())
			}
			// p = H(p), for the parameter p.
			p := types.NewTuple(types.NewParam(token.NoPos, nil, "", sig.Params().At(0).Type()))
			return types.NewSignatureType(nil, nil, nil, p, p, false), nil
		})
	}
	for typ, methods := range syncWrappers {
		for name, h := range methods {
			check("(*sync."+typ+")."+name, h, func(*types.Signature) (*types.Signature, error) {
				recv, sig, err := method(syncPkg, typ, name, nil)
				if err != nil {
					return nil, err
				}
				return methodExpr(recv, sig), nil
			})
		}
	}
	for name, h := range lockerHooks {
		check("sync.Locker."+name, h, func(*types.Signature) (*types.Signature, error) {
			recv, sig, err := method(syncPkg, "Locker", name, nil)
			if err != nil {
				return nil, err
			}
			return methodExpr(recv, sig), nil
		})
	}
	for name, h := range atomicFuncs {
		check("atomic."+name, h, func(*types.Signature) (*types.Signature, error) {
			fn, ok := atomicPkg.Scope().Lookup(name).(*types.Func)
			if !ok {
				return nil, fmt.Errorf("no function atomic.%s", name)
			}
			return withSite(fn.Type().(*types.Signature)), nil
		})
	}
	for key, h := range atomicMethods {
		typ, name, _ := strings.Cut(key, ".")
		check("(*atomic."+typ+")."+name, h, func(hsig *types.Signature) (*types.Signature, error) {
			// A generic type's wrapper is generic in the same type
			// parameters: instantiate the type with the wrapper's.
			var targs []types.Type
			for i := 0; i < hsig.TypeParams().Len(); i++ {
				targs = append(targs, hsig.TypeParams().At(i))
			}
			recv, sig, err := method(atomicPkg, typ, name, targs)
			if err != nil {
				return nil, err
			}
			return withSite(methodExpr(recv, sig)), nil
		})
	}

	// Every function and method of sync/atomic has a wrapper: a call of
	// one that has none is an error of the rewriter.
	for _, name := range atomicPkg.Scope().Names() {
		switch obj := atomicPkg.Scope().Lookup(name).(type) {
		case *types.Func:
			if obj.Exported() && atomicFuncs[name] == nil {
				t.Errorf("atomic.%s has no wrapper in atomicFuncs", name)
			}
		case *types.TypeName:
			if !obj.Exported() {
				continue
			}
			mset := types.NewMethodSet(types.NewPointer(obj.Type()))
			for i := 0; i < mset.Len(); i++ {
				m := mset.At(i).Obj()
				if m.Exported() && atomicMethods[name+"."+m.Name()] == nil {
					t.Errorf("(*atomic.%s).%s has no wrapper in atomicMethods", name, m.Name())
				}
			}
		}
	}
}

// checkRuntimeConst checks that the runtime declares the constant name
// with the value of the rewriter's copy.
func checkRuntimeConst(t *testing.T, name string, value uint64) {
	t.Helper()
	c, ok := checkedRuntimeFor(t).pkg.Scope().Lookup(name).(*types.Const)
	if !ok {
		t.Fatalf("the runtime declares no constant %s", name)
	}
	if want := constant.MakeUint64(value); !constant.Compare(c.Val(), token.EQL, want) {
		t.Errorf("the runtime's %s is %s, the rewriter's copy %s", name, c.Val(), want)
	}
}

// TestContractSiteGlobal checks that the bit that marks a site of a
// package-level variable is the runtime's SiteGlobal.
func TestContractSiteGlobal(t *testing.T) {
	checkRuntimeConst(t, "SiteGlobal", siteGlobal)
	// The bit must lie in a site's index, the low 32 bits, above any
	// index a package can have.
	if siteGlobal >= 1<<32 || siteGlobal < 1<<30 {
		t.Errorf("siteGlobal %#x is not a high bit of the 32-bit index", siteGlobal)
	}
}

// TestContractSiteWord checks that the bit that marks a site whose value
// is recorded by its first word is the runtime's SiteWord, and that it
// lies in a site's index apart from siteGlobal.
func TestContractSiteWord(t *testing.T) {
	checkRuntimeConst(t, "SiteWord", siteWord)
	if siteWord >= 1<<32 || siteWord < 1<<24 || siteWord&siteGlobal != 0 {
		t.Errorf("siteWord %#x is not a high bit of the 32-bit index apart from siteGlobal", siteWord)
	}
}

// TestContractModes checks that the runtime tells apart exactly the
// modes that instrument.Mode names: every name the runtime compares its
// buildMode with is a Mode's, and each Mode, written into buildMode as
// the command does, gives the runtime constants of its own.
func TestContractModes(t *testing.T) {
	rt := checkedRuntimeFor(t)
	buildMode, ok := rt.pkg.Scope().Lookup("buildMode").(*types.Const)
	if !ok {
		t.Fatal("the runtime declares no constant buildMode")
	}
	if v := constant.StringVal(buildMode.Val()); !slices.Contains(modeNames[:], v) {
		t.Errorf("the runtime's buildMode is %q, which is no Mode", v)
	}

	// The names the runtime gives a meaning to: it may compare
	// buildMode with a constant, and do nothing else with it, so that
	// no name escapes this check.
	compared := make(map[*ast.Ident]bool)
	uses := 0
	for _, f := range rt.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if rt.info.Uses[n] == buildMode {
					uses++
				}
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					break
				}
				for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
					id, ok := ast.Unparen(pair[0]).(*ast.Ident)
					if !ok || rt.info.Uses[id] != buildMode {
						continue
					}
					compared[id] = true
					tv := rt.info.Types[pair[1]]
					if tv.Value == nil || tv.Value.Kind() != constant.String {
						t.Errorf("%s: buildMode is compared with something other than a constant", rt.fset.Position(n.Pos()))
					} else if name := constant.StringVal(tv.Value); !slices.Contains(modeNames[:], name) {
						t.Errorf("%s: the runtime compares buildMode with %q, which is no Mode", rt.fset.Position(n.Pos()), name)
					}
				}
			}
			return true
		})
	}
	if uses == 0 || uses != len(compared) {
		t.Errorf("the runtime uses buildMode %d times, %d of them in comparisons with a mode's name: it must do nothing else with it", uses, len(compared))
	}

	// Each Mode gives the runtime a configuration of its own.
	lit := buildModeLit(t, rt)
	saved := lit.Value
	defer func() { lit.Value = saved }()
	seen := make(map[string]Mode)
	for _, m := range Modes() {
		lit.Value = strconv.Quote(m.String())
		pkg, _, err := rt.check()
		if err != nil {
			t.Fatalf("mode %v: %v", m, err)
		}
		var consts []string
		for _, name := range pkg.Scope().Names() {
			if c, ok := pkg.Scope().Lookup(name).(*types.Const); ok && name != "buildMode" {
				consts = append(consts, name+"="+c.Val().ExactString())
			}
		}
		key := strings.Join(consts, " ")
		if other, ok := seen[key]; ok {
			t.Errorf("modes %v and %v give the runtime the same constants", other, m)
		}
		seen[key] = m
	}
}

// buildModeLit returns the literal that buildMode is declared with in
// the runtime's config.go.
func buildModeLit(t *testing.T, rt *checkedRuntime) *ast.BasicLit {
	t.Helper()
	for _, f := range rt.files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name != "buildMode" || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						return lit
					}
					t.Fatalf("%s: buildMode is not declared with a string literal", rt.fset.Position(n.Pos()))
				}
			}
		}
	}
	t.Fatal("no declaration of buildMode in the runtime")
	return nil
}
