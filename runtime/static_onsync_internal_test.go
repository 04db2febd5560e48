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
				armed <- siteRec(site)
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
