package analysis

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// purePackages lists standard library packages whose package-level
// functions only compute: they neither start goroutines nor synchronize,
// nor store their arguments anywhere but in the values they return, nor
// call methods of their arguments (function arguments, as in strings.Map,
// are called synchronously). Calls to them therefore do not make their
// arguments escape, and, without function arguments, wait for no other
// goroutine (Computations).
var purePackages = map[string]bool{
	"bytes":            true,
	"internal/bytealg": true, // bytes' and strings' assembly
	"math":             true,
	"math/bits":        true,
	"strconv":          true,
	"strings":          true,
	"unicode":          true,
	"unicode/utf16":    true,
	"unicode/utf8":     true,
}

// pureFunc reports whether fn is a package-level function of a package
// in purePackages. Methods are excluded: bytes.Buffer, strings.Builder
// and strings.Reader methods keep their arguments in their receivers.
func pureFunc(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return false
	}
	return purePackages[fn.Pkg().Path()]
}

// isPure reports whether fn is a package-level function of a package in
// purePackages (pureFunc).
func isPure(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	return ok && pureFunc(obj)
}
