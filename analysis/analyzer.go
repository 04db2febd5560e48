package analysis

import (
	"reflect"

	goanalysis "golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
)

// Analyzer is the analysis as a go/analysis pass, for go vet -vettool and
// analysistest. Its result is a *Locality. It reports no diagnostics.
//
// It requires buildssa.Analyzer so that drivers schedule it like other
// SSA-based passes, but builds its own SSA form of the package: buildssa
// builds without the debug information that maps SSA values back to
// source expressions. If the package cannot be analysed, the result
// reports nothing local rather than failing the pass.
var Analyzer = &goanalysis.Analyzer{
	Name:       "racegenlocal",
	Doc:        "find memory accesses that are provably goroutine-local\n\nThe racegenlocal pass is racegen's goroutine-escape analysis: its result tells the instrumenter which access expressions need no race-detection hook.",
	URL:        "https://github.com/racegen/racegen",
	Requires:   []*goanalysis.Analyzer{buildssa.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Locality](),
}

func run(pass *goanalysis.Pass) (any, error) {
	// An error only means less is known to be local; the result is
	// still sound, so the pass does not fail.
	l, _ := Package(pass.Fset, pass.Files, pass.Pkg, pass.TypesInfo)
	return l, nil
}
