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

// pureNames lists other functions and methods of the standard library
// that only compute, by their full names (types.Func.FullName): reading
// the clock, and time.Time's methods that answer from the time's value
// alone, whose receivers are values they keep nowhere. Caches ask them
// under their locks (ristretto's expiration buckets, go-cache's expiry).
var pureNames = map[string]bool{
	"time.Now":                true,
	"time.Since":              true,
	"time.Until":              true,
	"(time.Time).Unix":        true,
	"(time.Time).UnixMilli":   true,
	"(time.Time).UnixMicro":   true,
	"(time.Time).UnixNano":    true,
	"(time.Time).IsZero":      true,
	"(time.Time).Before":      true,
	"(time.Time).After":       true,
	"(time.Time).Equal":       true,
	"(time.Time).Compare":     true,
	"(time.Time).Sub":         true,
	"(time.Time).Add":         true,
	"(time.Duration).Seconds": true,
}

// pureFunc reports whether fn is a package-level function of a package
// in purePackages, or one of pureNames. Other methods are excluded:
// bytes.Buffer, strings.Builder and strings.Reader methods keep their
// arguments in their receivers.
func pureFunc(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if pureNames[fn.FullName()] {
		return true
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return false
	}
	return purePackages[fn.Pkg().Path()]
}

// isPure reports whether fn only computes and keeps nothing (pureFunc).
func isPure(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	return ok && pureFunc(obj)
}
