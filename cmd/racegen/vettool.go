package main

import (
	"strings"

	"github.com/racegen/racegen/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// isVetInvocation reports whether racegen's arguments are those go vet
// passes to a -vettool: -V=full (the tool's identity, for the build
// cache), -flags (the analysis flags it accepts, as JSON), or analysis
// flags followed by one .cfg file describing the package to check. No
// other form of racegen takes arguments like these.
func isVetInvocation(args []string) bool {
	if len(args) == 1 && (args[0] == "-V=full" || args[0] == "-flags") {
		return true
	}
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// vetMain runs racegen's analysis as go vet's tool, through unitchecker,
// which reads the arguments from os.Args and exits. The analysis
// (racegenlocal) reports nothing; racegenreport reports only when asked
// to (see analysis.Report).
func vetMain() {
	unitchecker.Main(analysis.Analyzer, analysis.Report)
}
