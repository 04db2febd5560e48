package runtime

import (
	goruntime "runtime"
	"testing"
)

// TestChannelHistorySurvivesGC checks that a channel's send and close,
// which are accesses of the channel object, keep their history across GC
// cycles while the channel lives: a close racing with a send is reported
// even when a collection completes between them. Plain heap history would
// be dropped there (see heap.go).
func TestChannelHistorySurvivesGC(t *testing.T) {
	ch := make(chan int, 1)
	keep = append(keep, ch)
	addr := ChanOf(ch)
	before := Races()
	inGoroutine(func() { Send(ch, 1, newSite()) })
	goruntime.GC()
	goruntime.GC()
	Close(ch, newSite())
	if Races() == before {
		t.Errorf("close racing with a send before two GC cycles not reported")
	}
	_ = addr
}

var keep []any
