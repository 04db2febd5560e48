package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"github.com/racegen/racegen/instrument"
)

// The site numbers and the site table that rewritten code passes to the
// runtime are written by the instrumenter (instrument/sites.go) and read
// here (sitePosition, parseSites). TestSitesContract runs the two
// together: it rewrites a package with the real instrumenter, registers
// the table it declares as the rewritten code would, and looks up every
// site the hooks pass, as a report does.

// siteContractFile is the file rewritten, in a directory whose name has
// colons, which the table's file:line:col must survive.
const siteContractFile = "/src/a:b/c:d/p.go"

const siteContractSrc = `package p

var g int

type T struct {
	f int
	s string
}

func F(p *int, t *T) int {
	g = h() // a call: the read of g below is not redundant
	*p = g
	t.f++
	t.s = "x"
	go func() {
		g++
	}()
	return *p
}

func h() int { return 0 }
`

func TestSitesContract(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, siteContractFile, siteContractSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Instances: map[*ast.Ident]types.Instance{},
		Scopes: map[ast.Node]*types.Scope{}, FileVersions: map[*ast.File]string{},
	}
	pkg, err := new(types.Config).Check("example.com/p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	res, err := instrument.Package(fset, []*ast.File{f}, pkg, info, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := parser.ParseFile(token.NewFileSet(), "rewritten.go", res.Files[siteContractFile], 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Files[siteContractFile])
	}

	// The table, registered as the rewritten code's initializer does,
	// and the accesses the hooks record.
	type access struct {
		site uint64
		text string // the expression accessed, as in the source
	}
	var accesses []access
	var key uint32
	registered := false
	ast.Inspect(out, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || types.ExprString(sel.X) != "racegenrt" {
			return true
		}
		switch sel.Sel.Name {
		case "RegisterSites":
			k, err1 := strconv.ParseUint(call.Args[0].(*ast.BasicLit).Value, 0, 32)
			table, err2 := strconv.Unquote(call.Args[1].(*ast.BasicLit).Value)
			if err1 != nil || err2 != nil {
				t.Fatalf("RegisterSites(%s, %s): %v, %v", types.ExprString(call.Args[0]), types.ExprString(call.Args[1]), err1, err2)
			}
			key = uint32(k)
			RegisterSites(key, table)
			registered = true
		case "R", "W":
			site, err := strconv.ParseUint(call.Args[1].(*ast.BasicLit).Value, 0, 64)
			if err != nil {
				t.Fatalf("%s: %v", types.ExprString(call), err)
			}
			text := "*" + types.ExprString(call.Args[0])
			if u, ok := call.Args[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
				text = types.ExprString(u.X)
			}
			accesses = append(accesses, access{site, text})
		}
		return true
	})
	if !registered {
		t.Fatalf("the rewritten file registers no site table:\n%s", res.Files[siteContractFile])
	}
	t.Cleanup(func() {
		sites.mu.Lock()
		delete(sites.raw, key)
		delete(sites.parsed, key)
		sites.mu.Unlock()
	})
	if len(accesses) != 7 {
		t.Fatalf("%d accesses hooked, want 7 (g, *p, g, t.f, t.s, the closure's g, *p):\n%s", len(accesses), res.Files[siteContractFile])
	}

	lines := strings.Split(siteContractSrc, "\n")
	for _, a := range accesses {
		if uint32(a.site>>32) != key {
			t.Errorf("site %#x of %s is not in the table of package key %#x", a.site, a.text, key)
		}
		if global := a.site&SiteGlobal != 0; global != (a.text == "g") {
			t.Errorf("site %#x of %s: SiteGlobal is %v", a.site, a.text, global)
		}
		// A string is one component (instrument's oneComponent), an int
		// fits a word either way.
		if word := a.site&SiteWord != 0; word != (a.text == "t.s") {
			t.Errorf("site %#x of %s: SiteWord is %v", a.site, a.text, word)
		}
		pos, ok := sitePosition(a.site)
		if !ok {
			t.Errorf("site %#x of %s: no position", a.site, a.text)
			continue
		}
		if pos.File != siteContractFile {
			t.Errorf("site %#x of %s: file %q, want %q", a.site, a.text, pos.File, siteContractFile)
		}
		if pos.Line < 1 || pos.Line > len(lines) || pos.Col < 1 || pos.Col > len(lines[pos.Line-1]) {
			t.Errorf("site %#x of %s: position %d:%d is outside the source", a.site, a.text, pos.Line, pos.Col)
			continue
		}
		if at := lines[pos.Line-1][pos.Col-1:]; !strings.HasPrefix(at, a.text) {
			t.Errorf("site %#x of %s: %d:%d is at %q", a.site, a.text, pos.Line, pos.Col, at)
		}
		fn := "example.com/p.F"
		if strings.TrimSpace(lines[pos.Line-1]) == "g++" {
			fn = "example.com/p.F.func1"
		}
		if pos.Func != fn {
			t.Errorf("site %#x of %s: function %q, want %q", a.site, a.text, pos.Func, fn)
		}
	}
}
