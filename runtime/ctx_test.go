package runtime_test

import (
	"sync"
	"testing"

	rt "github.com/racegen/racegen/runtime"
)

// TestCtx: an instrumented function's Ctx attributes each access to the
// goroutine that makes it, whether the Ctx is on that goroutine's stack
// (where it caches the goroutine's state) or was captured by a closure
// that another goroutine runs (where it must not). The same holds for the
// lock halves that take the Ctx, as the instrumenter writes a lock
// statement and a deferred unlock (split).
func TestCtx(t *testing.T) {
	tests := []struct {
		name   string
		shared bool // the two goroutines pass one Ctx, on the heap
		locked bool
		split  bool // lock with Locked(mu, c) and unlock with UnlockIn(mu, c)
		apart  bool // each goroutine locks a mutex of its own, which orders nothing
		want   int
	}{
		{"own Ctx, racy", false, false, false, false, 1},
		{"own Ctx, locked", false, true, false, false, 0},
		{"own Ctx, locked by halves", false, true, true, false, 0},
		{"own Ctx, two mutexes by halves", false, true, true, true, 1},
		{"shared Ctx, racy", true, false, false, false, 1},
		{"shared Ctx, locked", true, true, false, false, 0},
		{"shared Ctx, locked by halves", true, true, true, false, 0},
		{"shared Ctx, two mutexes by halves", true, true, true, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := new(uint64)
			escape(x)
			s0, s1 := newSite(), newSite()
			mu, mu1 := new(sync.Mutex), new(sync.Mutex)
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
				mu := mu
				if tt.apart && site == s1 {
					mu = mu1
				}
				for range 3 { // the second and third accesses use what the first cached
					switch {
					case tt.split:
						mu.Lock()
						if rt.SyncHot() {
							rt.Locked(mu, c)
						}
					case tt.locked:
						rt.Lock(mu)
					}
					*rt.W(x, site, c) += 1
					switch {
					case tt.split:
						rt.UnlockIn(mu, c)
					case tt.locked:
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

// TestCtxChan: a channel operation that takes the function's Ctx orders
// the accesses of the goroutines that make it, on each goroutine's own
// Ctx and on one both share on the heap, which must not carry either
// goroutine's state to the other. The first goroutine writes, then
// sends; the second receives, then writes: ordered when the receive
// takes what the send sent, a race when it receives from another
// channel.
func TestCtxChan(t *testing.T) {
	tests := []struct {
		name   string
		shared bool // the two goroutines pass one Ctx, on the heap
		apart  bool // the second goroutine receives from another channel
		want   int
	}{
		{"own Ctx, one channel", false, false, 0},
		{"own Ctx, two channels", false, true, 1},
		{"shared Ctx, one channel", true, false, 0},
		{"shared Ctx, two channels", true, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := new(uint64)
			escape(x)
			s0, s1 := newSite(), newSite()
			shared := new(rt.Ctx)
			escapeCtx(shared)
			ctx := func(own *rt.Ctx) *rt.Ctx {
				if tt.shared {
					return shared
				}
				return own
			}
			ch, other := make(chan int, 1), make(chan int, 1)
			other <- 0 // received from without the detector: it orders nothing
			expectRaces(t, tt.want, func() {
				sent := make(chan struct{})
				done := goInstr(func() {
					<-sent
					var own rt.Ctx
					c := ctx(&own)
					from := ch
					if tt.apart {
						from = other
					}
					rt.Recv(from, c)
					*rt.W(x, s1, c) += 1
				})
				var own rt.Ctx
				c := ctx(&own)
				*rt.W(x, s0, c) += 1
				rt.Send(ch, 1, newSite(), c)
				close(sent)
				<-done
			})
		})
	}
}
