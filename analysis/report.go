package analysis

import (
	"go/ast"
	"go/types"

	goanalysis "golang.org/x/tools/go/analysis"
)

// Report is the pass that go vet -vettool=racegen runs. It reports
// nothing unless its flag -local is set (-racegenreport.local on the go
// vet command line): the analysis proves accesses goroutine-local, which
// explains where racegen adds no hook and so what it costs and what it
// cannot see, but a proof of locality is not a finding about the
// program, and a vet pass that complains about correct code is worse
// than none.
//
// With -local it reports, at its declaration, each variable declared in
// a function of which every use is an access the analysis proves
// goroutine-local: racegen's instrumenter gives none of them a hook.
var Report = &goanalysis.Analyzer{
	Name:     "racegenreport",
	Doc:      "report what racegen's analysis proves goroutine-local\n\nThe racegenreport pass reports nothing unless -racegenreport.local is set. With it, it reports each variable declared in a function whose every use racegen's goroutine-escape analysis proves goroutine-local, so that racegen instruments none of them. It explains racegen's cost and coverage; it does not find bugs.",
	URL:      "https://github.com/racegen/racegen",
	Requires: []*goanalysis.Analyzer{Analyzer},
	Run:      runReport,
}

// reportLocal is the -local flag of Report.
var reportLocal bool

func init() {
	Report.Flags.BoolVar(&reportLocal, "local", false, "report the variables whose every use racegen proves goroutine-local")
}

func runReport(pass *goanalysis.Pass) (any, error) {
	if !reportLocal {
		return nil, nil
	}
	l, _ := pass.ResultOf[Analyzer].(*Locality)
	for _, v := range localVars(pass.Files, pass.Pkg, pass.TypesInfo, l) {
		pass.Reportf(v.Pos(), "racegen: %s is goroutine-local: its uses get no race-detection hook", v.Name())
	}
	return nil, nil
}

// localVars returns, in the order of their first use, the variables
// declared in functions of pkg that are used at least once and whose
// every use l reports local.
func localVars(files []*ast.File, pkg *types.Package, info *types.Info, l *Locality) []*types.Var {
	var order []*types.Var
	allLocal := map[*types.Var]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || v.IsField() || v.Pkg() != pkg || v.Parent() == nil || v.Parent() == pkg.Scope() {
				return true
			}
			if _, seen := allLocal[v]; !seen {
				order = append(order, v)
				allLocal[v] = true
			}
			allLocal[v] = allLocal[v] && l.Local(id)
			return true
		})
	}
	var out []*types.Var
	for _, v := range order {
		if allLocal[v] {
			out = append(out, v)
		}
	}
	return out
}
