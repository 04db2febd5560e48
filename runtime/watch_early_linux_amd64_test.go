package runtime

import (
	"testing"
	"time"
)

// TestWatchSelfHitCooldown: a hardware watchpoint whose owner keeps
// accessing its bytes is freed after selfHitLimit of those accesses, and
// its site then arms nothing until its cooldown, one time limit, is over.
// Before the cooldown such a site armed again at its next execution, and
// the owner paid a debug exception at each of its own accesses for as
// long as it ran (coolSite).
func TestWatchSelfHitCooldown(t *testing.T) {
	e := requireHW(t)
	const limit = 50 * time.Millisecond
	useEngine(t, e, limit)
	x, site := newWord(), newSite()
	store64(SW(x, site), 1)
	if !siteArmed(site) {
		t.Fatal("the sampled write armed no watchpoint")
	}
	start := time.Now()
	for i := range 4 * selfHitLimit {
		store64(x, uint64(i)) // the owner's own accesses: each traps
	}
	settle(e)
	if siteArmed(site) {
		t.Fatalf("the watchpoint is still armed after %d of its owner's accesses", 4*selfHitLimit)
	}
	if !cooling(site) {
		t.Fatal("the site of a watchpoint freed for its owner's accesses is not cooling down")
	}
	store64(SW(x, site), 2)
	if siteArmed(site) && time.Since(start) < limit {
		t.Fatal("the site armed again during its cooldown")
	}
	deadline := time.Now().Add(time.Minute)
	for cooling(site) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if cooling(site) {
		t.Fatal("the cooldown did not end within a minute")
	}
	store64(SW(x, site), 3)
	if !siteArmed(site) {
		t.Error("the site armed nothing after its cooldown")
	}
}

// TestWatchSpentFreed: a hardware watchpoint whose owner synchronized
// can report nothing more: another goroutine's access after that is not
// reported, and the engine frees the watchpoint rather than waiting for
// its time limit; a hit before the owner synchronized is still reported
// (TestWatchScenarios's sync-after).
func TestWatchSpentFreed(t *testing.T) {
	e := requireHW(t)
	useEngine(t, e, time.Hour)
	x, site := newWord(), newSite()
	before := Races()
	// The owner stays alive until the end, so that the other goroutine
	// does not run on its g, where its access would be the owner's.
	owned, release := make(chan bool), make(chan struct{})
	defer close(release)
	go func() {
		store64(SW(x, site), 1)
		armed := siteArmed(site)
		syncOp() // the owner's clock moves: the watchpoint is spent
		owned <- armed
		<-release
	}()
	if !<-owned {
		t.Fatal("the sampled write armed no watchpoint")
	}
	done := make(chan struct{})
	go func() {
		store64(x, 2) // a hit after the owner synchronized
		close(done)
	}()
	<-done
	settle(e)
	if siteArmed(site) {
		t.Error("a watchpoint hit after its owner synchronized is still armed")
	}
	if Races() != before {
		t.Error("a hit after the owner synchronized was reported")
	}
}

// TestWatchOwnerSyncParks: the first synchronization of a hardware
// watchpoint's owner after its sampled access disarms the watchpoint's
// events at once (spend), and the next flush frees its slot, with no
// other goroutine's access needed to show it spent.
func TestWatchOwnerSyncParks(t *testing.T) {
	e := requireHW(t)
	useEngine(t, e, time.Hour)
	x, site := newWord(), newSite()
	owned, release := make(chan *watchRec), make(chan struct{})
	defer close(release)
	go func() {
		store64(SW(x, site), 1)
		r := siteRec(site)
		if r != nil {
			syncOp()
		}
		owned <- r
		<-release
	}()
	r := <-owned
	if r == nil {
		t.Fatal("the sampled write armed no watchpoint")
	}
	if r.changedAt.Load() == 0 {
		t.Fatal("the owner's synchronization did not stamp its watchpoint")
	}
	if !r.parked.Load() {
		t.Fatal("the owner's synchronization did not disarm its watchpoint")
	}
	settle(e)
	if siteArmed(site) {
		t.Error("a watchpoint whose owner synchronized is still armed after a flush")
	}
}
