// Package inline is compiled by TestHooksInline, which checks that the
// compiler inlines the gate test of R, W and the hooks of maps, slices,
// copy and append into this code, as it must into every instrumented
// function: an access while the gate is closed is then a load and a
// branch, not a call.
package inline

import (
	"sync/atomic"

	rt "github.com/racegen/racegen/runtime"
)

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

var (
	m  map[string]int
	bs []byte
	us []uint64
)

func Collections(x []byte) {
	_ = rt.MapR(m, 9)["k"]          // want MapR
	rt.MapW(m, 10)["k"] = 1         // want MapW
	_ = string(rt.SliceR(bs, 11))   // want SliceR
	_ = rt.SliceW(us, 12)           // want SliceW
	_ = rt.Copy(bs, x, 13)          // want Copy
	_ = rt.CopyString(bs, s, 14)    // want CopyString
	bs = rt.Append(15, bs, x...)    // want Append
	us = rt.Append(16, us, 1, 2)    // want Append
	bs = rt.AppendString(17, bs, s) // want AppendString
}

var (
	n64 int64
	u64 atomic.Uint64
)

// Atomics: loads and stores inline; read-modify-writes, which must test
// the gate on both sides of the operation, do not fit the budget.
func Atomics() int64 {
	rt.AtomicStoreInt64(&n64, 1, 18)    // want AtomicStoreInt64
	rt.AtomicUint64Store(&u64, 1, 19)   // want AtomicUint64Store
	return rt.AtomicLoadInt64(&n64, 20) // want AtomicLoadInt64
}

// Static holds the hooks of sampled sites in static builds, which test
// inline whether the sample is dropped at once.
func Static() {
	*rt.SW(&i, 21) = *rt.SR(&i, 22) + 1 // want SR SW
}

// Versioned code chooses its copy with Idle, or with IdleRun where FRESA
// may skip its runs whole, which test the gate inline.
func Versioned() bool {
	return rt.Idle() && rt.IdleRun(23) // want Idle IdleRun
}
