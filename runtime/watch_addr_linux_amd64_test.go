package runtime

import (
	"encoding/binary"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// TestHWSampleAimedElsewhere: a hardware sample counts for a watchpoint
// only if the event that fired was aimed at the watchpoint's bytes. An
// event a re-aim did not reach still watches an earlier record's bytes,
// and fasthttp's in-memory benchmarks got false static-mode reports from
// such hits (1 to 3 in most runs at 398bb77, none with software
// watchpoints or after this check).
func TestHWSampleAimedElsewhere(t *testing.T) {
	e := requireHW(t)
	useEngine(t, e, time.Hour)
	x := newWord()
	access64(x, true, true) // arms a read/write watchpoint on *x
	slot := -1
	for i := range watchSlots {
		if r := watchSlots[i].rec.Load(); r != nil && r.lo == uintptr(unsafe.Pointer(x)) {
			slot = i
		}
	}
	if slot < 0 {
		t.Fatal("the sampled write armed no watchpoint")
	}
	var id uint64
	for k, v := range e.hw.ids {
		if v == slot {
			id = k
		}
	}
	// The second access: a goroutine that stays alive, so that its g
	// can be named in the sample's R14.
	gch, release := make(chan uintptr), make(chan struct{})
	go func() {
		gch <- getg()
		<-release
	}()
	g2 := <-gch
	defer close(release)

	ip := reflect.ValueOf(store64).Pointer() + 1 // inside Go code
	sample := func(bp uintptr) []byte {
		w := []uint64{0, uint64(ip), 0, uint64(nanotime()), uint64(bp), id, 0, 2, 0, uint64(g2)}
		rec := make([]byte, 8*len(w))
		for i, v := range w {
			binary.LittleEndian.PutUint64(rec[8*i:], v)
		}
		return rec
	}
	before := Races()
	e.hw.decide(sample(uintptr(unsafe.Pointer(x)) + 4096))
	if Races() != before {
		t.Fatalf("a hit of an event aimed at other bytes was reported")
	}
	e.hw.decide(sample(uintptr(unsafe.Pointer(x))))
	if Races() != before+1 {
		t.Fatalf("a hit of the armed event was not reported (control)")
	}
}
