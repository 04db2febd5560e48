package runtime

import (
	goruntime "runtime"
	"sync/atomic"
	"testing"
)

// TestChanHistoryGate: a channel's own history holds the gate open while
// it lasts, as a shadow page with cells does, so that a close outside
// sampling periods is still checked against a sampled send; and the gate
// closes when the history goes, whether it is forgotten (expire.go) or
// goes with its channel's syncVar when the channel dies (retire).
func TestChanHistoryGate(t *testing.T) {
	gateNow := func() int64 { return atomic.LoadInt64(&gate) }
	for _, tc := range []struct {
		name string
		end  func(ch *chan int) // ends the history of *ch
	}{
		{"forgotten", func(*chan int) { removeHistory(func(*cell) bool { return true }) }},
		{"channel died", func(ch *chan int) {
			*ch = nil
			goruntime.GC()
			goruntime.GC()
			Sweep()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			closeGate(t)
			ch := make(chan int, 1)
			switchSampling(true)
			inGoroutine(func() { Send(ch, 1, newSite(), nil) })
			switchSampling(false)
			if n := gateNow(); n != 1 {
				t.Fatalf("gate = %d after a sampled send and the period's end, want 1 (the send's history)", n)
			}
			before := Races()
			Close(ch, newSite()) // outside a sampling period: checked, not recorded
			if Races() == before {
				t.Errorf("a close outside sampling periods was not checked against the sampled send")
			}
			ch = make(chan int, 1) // a channel the close did not touch
			if n := gateNow(); n != 0 {
				t.Errorf("gate = %d after the close discarded the send's history, want 0", n)
			}
			inGoroutine(func() {
				switchSampling(true)
				Send(ch, 1, newSite(), nil)
				switchSampling(false)
			})
			if n := gateNow(); n != 1 {
				t.Fatalf("gate = %d with a second channel's history, want 1", n)
			}
			tc.end(&ch)
			if n := gateNow(); n != 0 {
				t.Errorf("gate = %d after the history ended, want 0", n)
			}
		})
	}
}

// TestChanHistoryExpires: below rate 1 a channel's history ends at a GC
// cycle, in the sweep that follows it, as the history of globals does
// (boundedHistory); at rate 1 it lasts as long as the channel.
func TestChanHistoryExpires(t *testing.T) {
	for _, bounded := range []bool{false, true} {
		closeGate(t)
		setBoundedHistory(t, bounded)
		ch := make(chan int, 1)
		keep = append(keep, ch)
		switchSampling(true)
		inGoroutine(func() { Send(ch, 1, newSite(), nil) })
		switchSampling(false)
		goruntime.GC()
		Sweep()
		sv := syncVarOf(ch)
		if got := sv != nil && sv.histOn.Load(); got == bounded {
			t.Errorf("boundedHistory %v: history kept across a GC cycle's sweep = %v, want %v", bounded, got, !bounded)
		}
		if got, want := atomic.LoadInt64(&gate), map[bool]int64{false: 1, true: 0}[bounded]; got != want {
			t.Errorf("boundedHistory %v: gate = %d after the sweep, want %d", bounded, got, want)
		}
		removeHistory(func(*cell) bool { return true })
	}
}

// syncVarOf returns the syncVar of the channel ch, or nil.
func syncVarOf(ch chan int) *syncVar {
	var found *syncVar
	p := ChanOf(ch)
	for i := range syncs.shards {
		sh := &syncs.shards[i]
		sh.mu.Lock()
		if tab := sh.tab.Load(); tab != nil {
			for j := range tab.keys {
				if tab.keys[j].Load() == uintptr(p) {
					found = tab.vals[j].Load()
				}
			}
		}
		sh.mu.Unlock()
	}
	return found
}
