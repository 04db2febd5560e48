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
	armed := func() bool {
		for i := range watchSlots {
			if r := watchSlots[i].rec.Load(); r != nil && r.site == site {
				return true
			}
		}
		return false
	}
	store64(SW(x, site), 1)
	if !armed() {
		t.Fatal("the sampled write armed no watchpoint")
	}
	start := time.Now()
	for i := range 4 * selfHitLimit {
		store64(x, uint64(i)) // the owner's own accesses: each traps
	}
	settle(e)
	if armed() {
		t.Fatalf("the watchpoint is still armed after %d of its owner's accesses", 4*selfHitLimit)
	}
	if !cooling(site) {
		t.Fatal("the site of a watchpoint freed for its owner's accesses is not cooling down")
	}
	store64(SW(x, site), 2)
	if armed() && time.Since(start) < limit {
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
	if !armed() {
		t.Error("the site armed nothing after its cooldown")
	}
}
