package runtime_test

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	rt "github.com/racegen/racegen/runtime"
)

// TestFastTrackFigure1 is the trace of FastTrack's Figure 1:
// wr(0,x) rel(0,m) acq(1,m) wr(1,x) has no race; without the lock it has.
func TestFastTrackFigure1(t *testing.T) {
	for _, locked := range []bool{true, false} {
		want := 0
		if !locked {
			want = 1
		}
		x := newObject()
		s0, s1 := newSite(), newSite()
		mu := new(sync.Mutex)
		expectRaces(t, want, func() {
			wrote := make(chan struct{})
			done := goInstr(func() { // thread 1
				<-wrote
				if locked {
					rt.Lock(mu) // acq(1,m)
				}
				rt.Write(x, 8, s1) // wr(1,x)
				if locked {
					rt.Unlock(mu)
				}
			})
			if locked {
				rt.Lock(mu)
			}
			rt.Write(x, 8, s0) // wr(0,x)
			if locked {
				rt.Unlock(mu) // rel(0,m)
			}
			close(wrote)
			<-done
		})
	}
}

// TestFastTrackFigure5 is the trace of FastTrack's Figure 5, where the
// read history of x goes from an epoch to a read set and back:
// wr(0,x) fork(0,1) rd(1,x) rd(0,x) rd(1,x) join(0,1) wr(0,x): no race.
// The second part checks that the read set keeps both reads: a write
// ordered after only one of them races with the other.
func TestFastTrackFigure5(t *testing.T) {
	x := newObject()
	w0, r1, r0, w0b := newSite(), newSite(), newSite(), newSite()
	expectRaces(t, 0, func() {
		rt.Write(x, 8, w0) // wr(0,x)
		wg := new(sync.WaitGroup)
		wg.Add(1)
		read := make(chan struct{})
		goInstr(func() { // fork(0,1)
			defer rt.WaitGroupDone(wg)
			rt.Read(x, 8, r1) // rd(1,x)
			close(read)
			rt.Read(x, 8, r1) // rd(1,x), after rd(0,x) below
		})
		<-read
		rt.Read(x, 8, r0)    // rd(0,x): concurrent with rd(1,x)
		rt.WaitGroupWait(wg) // join(0,1)
		rt.Write(x, 8, w0b)  // wr(0,x)
	})

	// Read-shared, then a write ordered after only one reader.
	y := newObject()
	ra, rb, w := newSite(), newSite(), newSite()
	text := expectRaces(t, 1, func() {
		mu := new(sync.Mutex)
		aDone := goInstr(func() { rt.Read(y, 8, ra) })
		<-aDone
		bDone := goInstr(func() {
			rt.Read(y, 8, rb)
			rt.Lock(mu)
			rt.Unlock(mu)
		})
		<-bDone
		rt.Lock(mu) // ordered after B's read, not A's
		rt.Write(y, 8, w)
		rt.Unlock(mu)
	})
	if pos := sitePos(ra); !strings.Contains(text, "Previous read at") || !strings.Contains(text, pos) {
		t.Errorf("report does not name reader A's site %s:\n%s", pos, text)
	}
}

// TestReadShared checks that concurrent reads do not race with each other
// and that a later write races with every unordered one.
func TestReadShared(t *testing.T) {
	const readers = 8
	x := newObject()
	rs, w, w2 := newSite(), newSite(), newSite()
	expectRaces(t, 0, func() {
		wg := new(sync.WaitGroup)
		for range readers {
			wg.Add(1)
			<-goInstr(func() {
				rt.Read(x, 8, rs)
				rt.WaitGroupDone(wg)
			})
		}
		rt.WaitGroupWait(wg)
		rt.Write(x, 8, w) // after every read: no race, read set dropped
	})
	expectRaces(t, 1, func() {
		for range readers {
			<-goInstr(func() { rt.Read(x, 8, rs) })
		}
		rt.Write(x, 8, w2) // unordered with all of them: one report
	})
}

// TestSameEpoch checks that repeated accesses by one goroutine, and a read
// after its own write, are not races, and that a write-read race is found.
func TestSameEpoch(t *testing.T) {
	x := newObject()
	w, r, wr := newSite(), newSite(), newSite()
	expectRaces(t, 0, func() {
		for range 3 {
			rt.Write(x, 8, w)
			rt.Read(x, 8, r)
		}
	})
	expectRaces(t, 1, func() {
		<-goInstr(func() { rt.Write(x, 8, wr) })
		rt.Read(x, 8, r) // write-read race
	})
}

// TestReadAfterOwnWrite: a goroutine's read of bytes it wrote in the same
// epoch is redundant (cell.repeats), and another goroutine's write that
// races with both is still reported, against the write; after a write
// ordered after both replaced it, a write unordered with that one is
// reported, and nothing else.
func TestReadAfterOwnWrite(t *testing.T) {
	x := newObject()
	w0, r0, w1 := newSite(), newSite(), newSite()
	text := expectRaces(t, 1, func() {
		wrote := make(chan struct{})
		done := goInstr(func() {
			<-wrote // unseen by the detector: no order
			rt.Write(x, 8, w1)
		})
		rt.Write(x, 8, w0)
		rt.Read(x, 8, r0)
		close(wrote)
		<-done
	})
	if pos := sitePos(w0); !strings.Contains(text, "Previous write at") || !strings.Contains(text, pos) {
		t.Errorf("report does not name the write at %s:\n%s", pos, text)
	}

	y := newObject()
	wa, ra, wb, wc := newSite(), newSite(), newSite(), newSite()
	expectRaces(t, 1, func() {
		mu := new(sync.Mutex)
		read := make(chan struct{})
		aDone := goInstr(func() {
			rt.Lock(mu)
			rt.Write(y, 8, wa)
			rt.Read(y, 8, ra) // redundant after wa
			rt.Unlock(mu)
			close(read)
		})
		bDone := goInstr(func() {
			<-read // unseen by the detector
			rt.Lock(mu)
			rt.Write(y, 8, wb) // ordered after wa and ra
			rt.Unlock(mu)
		})
		<-aDone
		<-bDone
		rt.Write(y, 8, wc) // ordered after neither: races with wb
	})
}

// TestByteMasks checks that the 8-byte granules of the shadow keep which
// bytes each access touched: neighbouring bytes are different locations.
func TestByteMasks(t *testing.T) {
	tests := []struct {
		name                 string
		offA, sizeA          uintptr
		offB, sizeB          uintptr
		writeA, writeB, race bool
	}{
		{"adjacent bytes written", 0, 1, 1, 1, true, true, false},
		{"halves written", 0, 4, 4, 4, true, true, false},
		{"byte read, next written", 3, 1, 4, 1, false, true, false},
		{"same byte", 5, 1, 5, 1, true, true, true},
		{"byte inside word", 2, 1, 0, 8, true, true, true},
		{"word over byte", 0, 8, 7, 1, true, false, true},
		{"straddling granules", 6, 4, 8, 1, true, true, true},
		{"range beside range", 0, 12, 12, 4, true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := new([16]byte)
			escape(p)
			base := unsafe.Pointer(p)
			sa, sb := newSite(), newSite()
			access := func(off, size uintptr, write bool, site uint64) {
				if write {
					rt.WriteRange(unsafe.Add(base, off), size, site)
				} else {
					rt.ReadRange(unsafe.Add(base, off), size, site)
				}
			}
			want := 0
			if tt.race {
				want = 1
			}
			expectRaces(t, want, func() {
				<-goInstr(func() { access(tt.offA, tt.sizeA, tt.writeA, sa) })
				access(tt.offB, tt.sizeB, tt.writeB, sb)
			})
		})
	}
}

// TestStackIgnored checks that accesses to the calling goroutine's own
// stack are not tracked: no other goroutine can reach that memory.
func TestStackIgnored(t *testing.T) {
	var local [2]uint64 // does not escape
	s := newSite()
	before := rt.ShadowCells()
	rt.Write(unsafe.Pointer(&local[0]), 8, s)
	if n := rt.ShadowCells(); n != before {
		t.Errorf("stack write made %d shadow cells", n-before)
	}
	runtime.KeepAlive(&local)
}
