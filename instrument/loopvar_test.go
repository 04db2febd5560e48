package instrument

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// loopVarSrc is the most common race of Go before 1.22: goroutines that
// capture a range clause's variable, which every iteration assigns.
const loopVarSrc = `package p

func f(xs []int, out chan int) {
	for i, x := range xs {
		go func() { out <- i + x }()
	}
}
`

// TestPerLoopRangeVars checks that a range clause's writes of its
// variables get hooks where the variables are one per loop (files before
// go1.22), and none where every iteration has its own.
func TestPerLoopRangeVars(t *testing.T) {
	for _, tt := range []struct {
		goVersion string
		writes    int
	}{
		{"go1.21", 2},
		{"go1.12", 2},
		{"go1.22", 0},
		{"go1.26", 0},
	} {
		fset := token.NewFileSet()
		f, pkg, info := checkSrc(t, fset, mapImporter{}, "p", loopVarSrc, tt.goVersion)
		res, err := Package(fset, []*ast.File{f}, pkg, info, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.goVersion, err)
		}
		var out string
		for _, src := range res.Files {
			out = string(src)
		}
		if got := strings.Count(out, "racegenrt.W(&"); got != tt.writes {
			t.Errorf("go version %q: %d write hooks, want %d:\n%s", tt.goVersion, got, tt.writes, out)
		}
	}
}
