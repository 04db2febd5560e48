package instrument

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"testing"
)

// mapImporter imports the packages it holds.
type mapImporter map[string]*types.Package

func (m mapImporter) Import(path string) (*types.Package, error) {
	if p, ok := m[path]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no package %s", path)
}

// checkSrc type-checks src as the package path.
func checkSrc(t *testing.T, fset *token.FileSet, imp mapImporter, path, src string) (*ast.File, *types.Package, *types.Info) {
	t.Helper()
	f, err := parser.ParseFile(fset, strings.ReplaceAll(path, "/", "_")+".go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Instances: map[*ast.Ident]types.Instance{},
		Scopes: map[ast.Node]*types.Scope{},
	}
	pkg, err := (&types.Config{Importer: imp}).Check(path, fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	imp[path] = pkg
	return f, pkg, info
}

// TestDependencyCalls checks that calls into a package outside the main
// module and the standard library, which racegen does not instrument, are
// bracketed as I/O calls, and calls within the main module are not.
func TestDependencyCalls(t *testing.T) {
	fset := token.NewFileSet()
	imp := mapImporter{}
	checkSrc(t, fset, imp, "example.com/pool", `package pool

type Buf struct{ b []byte }

func (b *Buf) Write(p []byte) { b.b = append(b.b, p...) }

type Pool struct{}

func (*Pool) Get() *Buf  { return new(Buf) }
func (*Pool) Put(b *Buf) {}

type Getter interface{ Get() *Buf }

func Do(f func()) { f() }
`)
	checkSrc(t, fset, imp, "example.com/m/sib", `package sib

func Local() int { return 1 }
`)
	f, pkg, info := checkSrc(t, fset, imp, "example.com/m/a", `package a

import (
	"example.com/m/sib"
	"example.com/pool"
)

var p pool.Pool

type embeds struct{ pool.Getter }

func F(e embeds) int {
	b := p.Get()
	b.Write(nil)
	p.Put(b)
	_ = e.Get()
	pool.Do(func() { b.Write(nil) })
	return sib.Local()
}
`)
	for _, tc := range []struct {
		module string
		want   bool
	}{{"example.com/m", true}, {"", false}} {
		res, err := Package(fset, []*ast.File{f}, pkg, info, &Config{Module: tc.module})
		if err != nil {
			t.Fatal(err)
		}
		var out string
		for _, src := range res.Files {
			out = regexp.MustCompile(`/\*line [^*]*\*/ `).ReplaceAllString(string(src), "")
		}
		checks := []struct {
			re   string
			want bool
		}{
			{`IORelease\(\)\s*b := racegenrt\.IO1\(p\.Get\(\)\)`, tc.want},
			{`IORelease\(\)\s*[^\n]*\.Write\(nil\)\s*racegenrt\.IOAcquire\(\)`, tc.want},
			{`IORelease\(\)\s*p\.Put\([^\n]*\)\s*racegenrt\.IOAcquire\(\)`, tc.want},
			{`IORelease\(\)\s*_ = racegenrt\.IO1\(e\.(Getter\.)?Get\(\)\)`, tc.want},
			{`pool\.Do\(func\(\) \{\s*racegenrt\.IOAcquire\(\)\s*defer racegenrt\.IORelease\(\)`, tc.want},
			{`IORelease\(\)\s*return sib\.Local\(\)`, false},
			{`IO1\(sib\.Local\(\)\)`, false},
		}
		for _, c := range checks {
			if got := regexp.MustCompile(c.re).MatchString(out); got != c.want {
				t.Errorf("module %q: %s matched %v, want %v in\n%s", tc.module, c.re, got, c.want, out)
			}
		}
	}
}

func TestIsUninstrumented(t *testing.T) {
	c := &Config{Module: "example.com/m"}
	for path, want := range map[string]bool{
		"sync":                        false,
		"net/http":                    false,
		"example.com/m":               false,
		"example.com/m/x/y":           false,
		"example.com/mm":              true,
		"github.com/valyala/fasthttp": true,
		"golang.org/x/sync/errgroup":  true,
		RuntimePath:                   false,
	} {
		if got := c.isUninstrumented(path); got != want {
			t.Errorf("isUninstrumented(%q) = %v, want %v", path, got, want)
		}
	}
	if (&Config{}).isUninstrumented("github.com/valyala/fasthttp") {
		t.Error("with no module every package should count as instrumented")
	}
}
