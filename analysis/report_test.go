package analysis_test

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/racegen/racegen/analysis"
	goanalysis "golang.org/x/tools/go/analysis"
)

// reportNames runs the Report pass on the package in testdata/src/path,
// with its -local flag set to local, and returns the variables it names,
// as name:line.
func reportNames(t *testing.T, path string, local bool) []string {
	t.Helper()
	if err := analysis.Report.Flags.Set("local", map[bool]string{true: "true", false: "false"}[local]); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { analysis.Report.Flags.Set("local", "false") })
	fset := token.NewFileSet()
	p := load(t, fset, newImporter(fset), filepath.Join("testdata", "src", path), path)
	var names []string
	pass := &goanalysis.Pass{
		Analyzer:   analysis.Report,
		Fset:       p.fset,
		Files:      p.files,
		Pkg:        p.pkg,
		TypesInfo:  p.info,
		TypesSizes: types.SizesFor("gc", "amd64"),
		ResultOf:   map[*goanalysis.Analyzer]any{analysis.Analyzer: runAnalyzer(t, analysis.Analyzer, p)},
		Report: func(d goanalysis.Diagnostic) {
			name, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "racegen: "), " ")
			// The report is at the variable's declaration.
			if decl := identAt(t, p, d.Pos); decl != name {
				t.Errorf("report %q is at %s, the declaration of %s", d.Message, p.fset.Position(d.Pos), decl)
			}
			names = append(names, fmt.Sprintf("%s:%d", name, p.fset.Position(d.Pos).Line))
		},
	}
	if _, err := analysis.Report.Run(pass); err != nil {
		t.Fatal(err)
	}
	return names
}

// identAt returns the name of the identifier declared at pos, or "".
func identAt(t *testing.T, p *loaded, pos token.Pos) string {
	t.Helper()
	for id, obj := range p.info.Defs {
		if id.Pos() == pos && obj != nil {
			return id.Name
		}
	}
	return ""
}

func TestReport(t *testing.T) {
	tests := []struct {
		path     string
		local    bool
		want     []string // must be reported
		notWant  []string // must not be
		wantNone bool
	}{
		{path: "local", local: false, wantNone: true},
		{path: "shared", local: false, wantNone: true},
		{path: "local", local: true, want: []string{"n:17", "x:18"}},
		// goClosure's x, rangeGo's it and i are captured by goroutines.
		{path: "shared", local: true, notWant: []string{"x:31", "it:84", "i:88"}},
	}
	for _, tt := range tests {
		got := reportNames(t, tt.path, tt.local)
		if tt.wantNone && len(got) > 0 {
			t.Errorf("%s with -local=%v: reported %q, want nothing", tt.path, tt.local, got)
		}
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s with -local=%v: %q not reported (got %q)", tt.path, tt.local, w, got)
			}
		}
		for _, w := range tt.notWant {
			if slices.Contains(got, w) {
				t.Errorf("%s with -local=%v: %q reported, but goroutines share it (got %q)", tt.path, tt.local, w, got)
			}
		}
	}
}
