// Callbacks that the Go runtime runs on goroutines of its own are wrapped
// so that the detector knows what they are ordered after.
package callbacks

import (
	"runtime"
	"time"
)

type res struct{ n int }

var shared int

func handoff() *time.Timer {
	shared = 1
	return time.AfterFunc(time.Millisecond, func() { shared++ })
}

func finalizers() {
	r := &res{}
	runtime.SetFinalizer(r, func(r *res) { shared = r.n })
	q := &res{}
	runtime.SetFinalizer(q, close1) // with a result
	var f any = close2
	runtime.SetFinalizer(q, f) // an interface value: left alone
	runtime.SetFinalizer(q, nil)
	runtime.AddCleanup(r, func(n int) { shared = n }, 1)
}

func close1(r *res) error { shared = r.n; return nil }
func close2(r *res)       { shared = r.n }
