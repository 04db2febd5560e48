// Package inline is compiled by TestHooksInline, which checks that the
// compiler inlines the gate test of R and W into this code, as it must
// into every instrumented function: an access while the gate is closed
// is then a load and a branch, not a call.
package inline

import rt "github.com/racegen/racegen/runtime"

type pair struct{ a, b int32 }

var (
	i int
	s string
	p pair
	b [4]byte
)

func Accesses() {
	var c rt.Ctx
	*rt.W(&i, 1, &c) = *rt.R(&i, 2, &c) + 1 // want R W
	*rt.W(&s, 3, &c) = *rt.R(&s, 4, &c)     // want R W
	*rt.W(&p, 5, &c) = *rt.R(&p, 6, &c)     // want R W
	*rt.W(&b, 7, nil) = *rt.R(&b, 8, nil)   // want R W
}
