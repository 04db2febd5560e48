package runtime

import (
	"testing"
	"time"
)

// TestStaticSyncStampsOwnerOnly: a synchronization operation stamps the
// watchpoints its own goroutine armed, and no other goroutine's (onSync
// finds the owner by its g).
func TestStaticSyncStampsOwnerOnly(t *testing.T) {
	if collide {
		t.Skip("in a collide build the owner waits on its watchpoint until the time limit")
	}
	for _, e := range engines(t) {
		t.Run(e.String(), func(t *testing.T) {
			useEngine(t, e, time.Hour)
			x, site := newWord(), newSite()
			armed, synced, done := make(chan *watchRec), make(chan struct{}), make(chan struct{})
			go func() {
				defer close(done)
				store64(SW(x, site), 1)
				var r *watchRec
				for i := range watchSlots {
					if w := watchSlots[i].rec.Load(); w != nil && w.site == site {
						r = w
					}
				}
				armed <- r
				<-synced
				syncOp()
			}()
			r := <-armed
			if r == nil {
				close(synced)
				<-done
				t.Fatal("the sampled write armed no watchpoint")
			}
			syncOp() // another goroutine's synchronization
			if r.changedAt.Load() != 0 {
				t.Error("another goroutine's synchronization stamped the watchpoint")
			}
			close(synced)
			<-done
			if r.changedAt.Load() == 0 {
				t.Error("the owner's synchronization did not stamp its watchpoint")
			}
		})
	}
}

// TestWatchCoolBackoff: a site that needs a cooldown again before one of
// its watchpoints ran its course cools down twice as long as the time
// before, up to 2^maxCoolLevel time limits, and a watchpoint that ran
// its course halves the next one.
func TestWatchCoolBackoff(t *testing.T) {
	const limit = int64(time.Millisecond)
	old := watchLimit.Swap(limit)
	defer watchLimit.Store(old)
	tests := []struct {
		name  string
		steps string // c: coolSite, r: relaxSite
		want  int64  // the last cooldown, in time limits
	}{
		{"first", "c", 1},
		{"second", "cc", 2},
		{"third", "ccc", 4},
		{"relaxed", "cccr" + "c", 4},
		{"relaxed twice", "cccrr" + "c", 2},
		{"relaxed at zero", "crr" + "c", 1},
		{"capped", "cccccccccccccccc", 1 << maxCoolLevel},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := uint64(1000+k) * numCool // one entry for every test
			c := &coolSites[site%numCool]
			c.site.Store(0)
			c.last.Store(0)
			c.level.Store(0)
			for _, s := range tt.steps {
				if s == 'c' {
					coolSite(site, 0)
				} else {
					relaxSite(site)
				}
			}
			if got := c.until.Load() / limit; got != tt.want {
				t.Errorf("cooldown %d time limits, want %d", got, tt.want)
			}
			if !cooling(site) {
				t.Error("the site is not cooling down")
			}
			c.site.Store(0)
		})
	}
}
