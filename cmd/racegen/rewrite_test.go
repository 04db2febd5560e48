package main

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
	"time"

	"github.com/racegen/racegen"
	"github.com/racegen/racegen/instrument"
)

// configConsts type-checks src, a config.go of the runtime, alone and
// returns the constants it declares. It must declare nothing else: the
// command replaces the whole file.
func configConsts(t *testing.T, name string, src []byte) map[string]*types.Const {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); !ok || g.Tok != token.CONST {
			t.Errorf("%s: %s declares something other than constants", name, fset.Position(d.Pos()))
		}
	}
	pkg, err := new(types.Config).Check("runtime", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	consts := make(map[string]*types.Const)
	for _, n := range pkg.Scope().Names() {
		if c, ok := pkg.Scope().Lookup(n).(*types.Const); ok {
			consts[n] = c
		}
	}
	return consts
}

// TestRuntimeConfig checks the config.go that runtimeConfig writes into
// every runtime it builds against the runtime's own: the same constants
// with the same types, whatever the flags, and the flags' values.
func TestRuntimeConfig(t *testing.T) {
	src, err := racegen.RuntimeFS.ReadFile("runtime/config.go")
	if err != nil {
		t.Fatal(err)
	}
	want := configConsts(t, "runtime/config.go", src)
	for _, name := range []string{"buildRate", "buildMode", "buildWatch", "buildFresa", "buildProfile"} {
		if want[name] == nil {
			t.Errorf("runtime/config.go does not declare %s", name)
		}
	}
	for _, mode := range instrument.Modes() {
		for _, rate := range []float64{1, 0, 0.5, 0.01, 1e-5} {
			for _, watch := range []time.Duration{15 * time.Millisecond, time.Nanosecond, time.Minute} {
				cfg := &config{rate: rate, mode: mode, watch: watch}
				got := configConsts(t, "generated config.go", runtimeConfig(cfg))
				for name, w := range want {
					g, ok := got[name]
					if !ok {
						t.Errorf("mode %v, rate %v: runtimeConfig does not declare %s", mode, rate, name)
					} else if !types.Identical(g.Type(), w.Type()) {
						t.Errorf("mode %v, rate %v: runtimeConfig declares %s of type %s, runtime/config.go of type %s", mode, rate, name, g.Type(), w.Type())
					}
				}
				for name := range got {
					if want[name] == nil {
						t.Errorf("runtimeConfig declares %s, which runtime/config.go does not", name)
					}
				}
				if c := got["buildMode"]; c != nil && constant.StringVal(c.Val()) != mode.String() {
					t.Errorf("mode %v: buildMode = %s", mode, c.Val())
				}
				if c := got["buildRate"]; c != nil {
					if v, _ := constant.Float64Val(c.Val()); v != rate {
						t.Errorf("rate %v: buildRate = %s", rate, c.Val())
					}
				}
				if c := got["buildWatch"]; c != nil {
					if v, _ := constant.Int64Val(c.Val()); v != watch.Nanoseconds() {
						t.Errorf("watch %v: buildWatch = %s", watch, c.Val())
					}
				}
			}
		}
	}
}

// TestFloatLit checks that floatLit spells each rate as an untyped
// float constant of exactly that value.
func TestFloatLit(t *testing.T) {
	for _, x := range []float64{0, 1, 0.5, 1e-5, 1e-300, 0.1 + 0.2} {
		s := floatLit(x)
		tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, s)
		if err != nil {
			t.Errorf("floatLit(%v) = %q: %v", x, s, err)
			continue
		}
		if tv.Type != types.Typ[types.UntypedFloat] {
			t.Errorf("floatLit(%v) = %q, an %s", x, s, tv.Type)
		}
		if f, _ := constant.Float64Val(tv.Value); f != x {
			t.Errorf("floatLit(%v) = %q, which is %v", x, s, f)
		}
	}
}
