package runtime

import (
	"sync"
	"testing"
	"unsafe"
)

// These tests drive Pacer's rules with the sampling state set by hand;
// they run in package runtime to reach it. Each restores full detection.

// withSampling runs f with sampling on or off and restores rate 1 after.
func setSampling(t *testing.T, on bool) {
	t.Helper()
	switchSampling(on)
	t.Cleanup(func() { switchSampling(true) })
}

// inGoroutine runs f in an instrumented goroutine and waits for it with
// synchronization the detector does not see.
func inGoroutine(f func()) {
	g := GoFork()
	done := make(chan struct{})
	go func() {
		GoStart(g)
		defer GoEnd()
		f()
		close(done)
	}()
	<-done
}

// forkWaiting forks an instrumented goroutine at once, which runs f when
// the returned function is called, and that function waits for it; both
// through channels the detector does not see, so that the goroutine is
// ordered after what preceded the fork and after nothing that follows.
func forkWaiting(f func()) (run func()) {
	start, done := make(chan struct{}), make(chan struct{})
	g := GoFork()
	go func() {
		GoStart(g)
		defer GoEnd()
		<-start
		f()
		close(done)
	}()
	return func() {
		close(start)
		<-done
	}
}

// heapObject returns a fresh heap word, kept alive, as a pointer.
func heapObject() unsafe.Pointer {
	p := new(uint64)
	pacerKeep = append(pacerKeep, p)
	return unsafe.Pointer(p)
}

var pacerKeep []*uint64

func cellsAt(x unsafe.Pointer) bool {
	a := uintptr(x)
	p := shadow.pageOf(a, false)
	if p == nil {
		return false
	}
	return p.present(a)
}

func TestPacerRules(t *testing.T) {
	const (
		read  = false
		write = true
	)
	tests := []struct {
		name string
		// The first access runs in another goroutine with sampling
		// firstOn, the second in the test's with sampling secondOn,
		// unordered.
		first, second       bool
		firstOn, secondOn   bool
		wantRace, wantCells bool
	}{
		{"sampled write, unsampled write: reported, then discarded", write, write, true, false, true, false},
		{"sampled write, unsampled read: reported, write kept", write, read, true, false, true, true},
		{"sampled read, unsampled write: reported, discarded", read, write, true, false, true, false},
		{"unsampled write, sampled write: first access not sampled", write, write, false, true, false, true},
		{"unsampled accesses record nothing", write, read, false, false, false, false},
		{"sampled read, unsampled read: no race, read kept", read, read, true, false, false, true},
	}
	acc := func(a unsafe.Pointer, w bool, site uint64) {
		if w {
			Write(a, 8, site)
		} else {
			Read(a, 8, site)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Each pair of sites is reported once: new ones every run.
			site1, site2 := newSite(), newSite()
			a := heapObject()
			before := Races()
			setSampling(t, tt.firstOn)
			inGoroutine(func() { acc(a, tt.first, site1) })
			setSampling(t, tt.secondOn)
			acc(a, tt.second, site2)
			if got := Races() > before; got != tt.wantRace {
				t.Errorf("race reported = %v, want %v", got, tt.wantRace)
			}
			if got := cellsAt(a); got != tt.wantCells {
				t.Errorf("metadata kept = %v, want %v", got, tt.wantCells)
			}
		})
	}
}

// TestPacerTimeless checks that releases outside sampling periods leave
// clocks alone, and that a goroutine entering a sampling period advances
// its clock first, which keeps a race after an unsampled release visible.
func TestPacerTimeless(t *testing.T) {
	var mu sync.Mutex
	x, y := heapObject(), heapObject()
	readSite, writeX, writeY := newSite(), newSite(), newSite()
	before := Races()
	setSampling(t, true)
	// The reader is created before everything below.
	reader := forkWaiting(func() {
		Lock(&mu)
		Read(y, 8, readSite)
		Unlock(&mu)
	})
	th := current()
	Write(x, 8, writeX)
	setSampling(t, false)
	e := th.epoch()
	Lock(&mu)
	Unlock(&mu)
	if th.epoch() != e {
		t.Fatalf("a release outside sampling advanced the clock: %v -> %v", e, th.epoch())
	}
	setSampling(t, true)
	Write(y, 8, writeY) // after the release: not ordered before the reader
	reader()
	if Races() == before {
		t.Errorf("race between a write after the release and a read after the acquire not reported")
	}
}

// TestHasHistory checks the lock-free test that lets accesses outside
// sampling periods skip memory without history.
func TestHasHistory(t *testing.T) {
	words := new([3]uint64)
	keep = append(keep, words) // on the heap: the goroutine's own stack has no history
	p := unsafe.Pointer(&words[1])
	a := uintptr(p)
	setSampling(t, false)
	if shadow.hasHistory(a, 8) {
		t.Errorf("hasHistory = true for a granule no one has accessed")
	}
	setSampling(t, true)
	Write(p, 8, newSite())
	setSampling(t, false)
	for _, r := range []struct{ addr, size uintptr }{
		{a, 8}, {a + 3, 1}, {a - 8, 24}, {a &^ 4095, 8192}, {a - 4096, 4104},
	} {
		if !shadow.hasHistory(r.addr, r.size) {
			t.Errorf("hasHistory(%#x, %d) = false, want true: %#x has a cell", r.addr, r.size, a)
		}
	}
	if shadow.hasHistory(a+8, 8) || shadow.hasHistory(a-8, 8) {
		t.Errorf("hasHistory = true for a neighbouring granule")
	}
}

// TestEpochCacheAcrossPeriods checks the epoch cache outside sampling
// periods: a goroutine's read of a granule it read at the same epoch
// since the last sampling period may be skipped, but not once a sampling
// period it did not see has recorded a racing write there. The reader's epoch
// has not moved in between: it released outside sampling periods only,
// which is what orders the write after its first read.
func TestEpochCacheAcrossPeriods(t *testing.T) {
	var mu sync.Mutex
	a := heapObject()
	read1, write, read2 := newSite(), newSite(), newSite()
	setSampling(t, true)
	// The writer is created first: forking it later would advance the
	// reader's clock.
	writer := forkWaiting(func() {
		Lock(&mu)
		Write(a, 8, write) // ordered after read1, not before read2
		Unlock(&mu)
	})
	th := current()
	Read(a, 8, read1)
	setSampling(t, false)
	Read(a, 8, read1) // cached at th's epoch, outside the sampling period
	e := th.epoch()
	Lock(&mu)
	Unlock(&mu) // outside sampling: no tick
	setSampling(t, true)
	writer()
	setSampling(t, false)
	if th.epoch() != e {
		t.Fatalf("reader's epoch moved from %v to %v: the test needs it unchanged", e, th.epoch())
	}
	before := Races()
	Read(a, 8, read2)
	if Races() == before {
		t.Errorf("write sampled in a period the reader did not see was not checked against its read at the same epoch")
	}
}

// TestReadSetDiscardedAfterPeriod checks that a read set recorded in a
// sampling period empties when its readers read again outside one, each
// discarding its own entry (Pacer's Algorithm 12), even though the epoch
// cache holds the same readers' reads at the same epochs.
func TestReadSetDiscardedAfterPeriod(t *testing.T) {
	x := heapObject()
	site := newSite()
	setSampling(t, true)
	step, done := make(chan struct{}), make(chan struct{})
	g := GoFork()
	go func() {
		GoStart(g)
		defer GoEnd()
		Read(x, 8, site) // sampled
		done <- struct{}{}
		<-step
		Read(x, 8, site) // outside the period: discards its entry
		done <- struct{}{}
	}()
	<-done
	Read(x, 8, site) // sampled, unordered with the other: a read set
	setSampling(t, false)
	step <- struct{}{}
	<-done
	if !cellsAt(x) {
		t.Fatalf("history gone after one reader of two read again")
	}
	Read(x, 8, site)
	if cellsAt(x) {
		t.Errorf("read set still held after both readers read again outside the sampling period")
	}
}

var quietBuf []byte

// TestQuietAcrossPages checks the filter test of R and W outside sampling
// periods for a value that straddles two pages, whose history is on the
// second: a sampled write of the value's second word by another
// goroutine, then an unsampled read of the whole value.
func TestQuietAcrossPages(t *testing.T) {
	buf := make([]byte, 3*pageBytes)
	quietBuf = buf // on the heap: the goroutine's own stack has no history
	defer func() { quietBuf = nil }()
	base := uintptr(unsafe.Pointer(&buf[0]))
	at := (base+pageBytes)&^(pageBytes-1) + pageBytes - 8 // 8 bytes before a page boundary
	v := (*[3]uint64)(unsafe.Pointer(&buf[at-base]))
	write, read := newSite(), newSite()
	setSampling(t, true)
	inGoroutine(func() { Write(unsafe.Pointer(&buf[at+8-base]), 8, write) })
	setSampling(t, false)
	before := Races()
	_ = *R(v, read, nil)
	if Races() == before {
		t.Errorf("unsampled read of %#x-%#x not checked against the sampled write at %#x, past the page boundary", at, at+24, at+8)
	}
}
