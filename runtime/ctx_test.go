package runtime_test

import (
	"sync"
	"testing"

	rt "github.com/racegen/racegen/runtime"
)

// TestCtx: an instrumented function's Ctx attributes each access to the
// goroutine that makes it, whether the Ctx is on that goroutine's stack
// (where it caches the goroutine's state) or was captured by a closure
// that another goroutine runs (where it must not).
func TestCtx(t *testing.T) {
	tests := []struct {
		name   string
		shared bool // the two goroutines pass one Ctx, on the heap
		locked bool
		want   int
	}{
		{"own Ctx, racy", false, false, 1},
		{"own Ctx, locked", false, true, 0},
		{"shared Ctx, racy", true, false, 1},
		{"shared Ctx, locked", true, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := new(uint64)
			escape(x)
			s0, s1 := newSite(), newSite()
			mu := new(sync.Mutex)
			shared := new(rt.Ctx)
			escapeCtx(shared)
			// write is an instrumented function: its accesses pass
			// its own Ctx, or the captured one.
			write := func(site uint64) {
				var own rt.Ctx
				c := &own
				if tt.shared {
					c = shared
				}
				for range 3 { // the second and third accesses use what the first cached
					if tt.locked {
						rt.Lock(mu)
					}
					*rt.W(x, site, c) += 1
					if tt.locked {
						rt.Unlock(mu)
					}
				}
			}
			expectRaces(t, tt.want, func() {
				// The goroutine starts first, so that only the plain
				// channel, which the detector does not see, orders
				// the two writes.
				wrote := make(chan struct{})
				done := goInstr(func() {
					<-wrote
					write(s1)
				})
				write(s0)
				close(wrote)
				<-done
			})
		})
	}
}

var ctxSink *rt.Ctx

func escapeCtx(c *rt.Ctx) { ctxSink = c }
