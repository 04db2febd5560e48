package runtime

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestStaticSyncGate checks, in static and collide builds (TestStaticBuild
// makes them), that synchronization calls into the detector only while a
// watchpoint is armed: a goroutine that racegen did not start and that
// locks a mutex and starts a goroutine with nothing armed is not
// registered, and one that does so while a watchpoint is armed is, so
// that its tick reaches the watchpoints it owns. Freeing the watchpoints
// closes the gate again.
func TestStaticSyncGate(t *testing.T) {
	if !staticSync {
		t.Skip("static and collide builds only (TestStaticBuild)")
	}
	useEngine(t, &engine{soft: true}, time.Minute)
	var mu sync.Mutex
	synchronize := func() bool {
		done := make(chan bool)
		go func() {
			Lock(&mu)
			Unlock(&mu)
			g := GoFork()
			go func() {
				GoStart(g)
				defer GoEnd()
			}()
			done <- registered(getg())
		}()
		return <-done
	}
	if gateOpen() {
		t.Fatalf("gate open (%d) with no watchpoint armed", atomic.LoadInt64(&gate))
	}
	if synchronize() {
		t.Error("a goroutine that synchronized while nothing was armed was registered")
	}
	if collideBuild {
		return // a sampled access waits until its watchpoint is freed
	}
	access64(newWord(), true, true) // arms a watchpoint
	if !gateOpen() {
		t.Fatal("gate closed with a watchpoint armed")
	}
	if !synchronize() {
		t.Error("a goroutine that synchronized while a watchpoint was armed was not registered")
	}
	freeAll()
	if gateOpen() {
		t.Errorf("gate open (%d) after every watchpoint was freed", atomic.LoadInt64(&gate))
	}
}
