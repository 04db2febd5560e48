package analysis

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// purePackages lists standard library packages whose package-level
// functions neither start goroutines, nor store their arguments anywhere
// but in the values they return, nor call methods of their arguments
// (function arguments, as in strings.Map, are called synchronously).
// Calls to them therefore do not make their arguments escape.
var purePackages = map[string]bool{
	"bytes":         true,
	"math":          true,
	"math/bits":     true,
	"strconv":       true,
	"strings":       true,
	"unicode":       true,
	"unicode/utf16": true,
	"unicode/utf8":  true,
}

// isPure reports whether fn is a package-level function of a package in
// purePackages. Methods are excluded: bytes.Buffer, strings.Builder and
// strings.Reader methods keep their arguments in their receivers.
func isPure(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || fn.Signature.Recv() != nil {
		return false
	}
	return purePackages[obj.Pkg().Path()]
}
