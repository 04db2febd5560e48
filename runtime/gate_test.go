package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// closeGate ends sampling and forgets every history, which closes the
// gate; the test's cleanup restores full detection.
func closeGate(t *testing.T) {
	t.Helper()
	switchSampling(false)
	t.Cleanup(func() { switchSampling(true) })
	removeHistory(func(*cell) bool { return true })
	if n := atomic.LoadInt64(&gate); n != 0 {
		t.Fatalf("gate = %d with no sampling and no history, want 0", n)
	}
}

// TestGateClosedRecordsNothing: while the gate is closed, accesses,
// synchronization and go statements leave no state behind.
func TestGateClosedRecordsNothing(t *testing.T) {
	closeGate(t)
	vars := SyncVars()
	slots.mu.Lock()
	used := slots.next
	slots.mu.Unlock()

	var mu sync.Mutex
	ch := make(chan int, 1)
	var n int32
	x := heapObject()
	g := GoFork()
	if !g.fresh() {
		t.Fatalf("GoFork with the gate closed did not fork a fresh goroutine")
	}
	done := make(chan struct{})
	go func() {
		GoStart(g)
		defer GoEnd()
		Lock(&mu)
		Write(x, 8, 3001)
		Unlock(&mu)
		Send(ch, 1, 3002, nil)
		AtomicAddInt32(&n, 1, 3003)
		close(done)
	}()
	<-done
	Recv(ch, nil)
	Read(x, 8, 3004)

	if got := SyncVars(); got != vars {
		t.Errorf("%d sync objects tracked after synchronizing with the gate closed, want %d", got, vars)
	}
	if cellsAt(x) {
		t.Errorf("history recorded with the gate closed")
	}
	slots.mu.Lock()
	got := slots.next
	slots.mu.Unlock()
	if got != used {
		t.Errorf("%d slots allocated with the gate closed, want none", got-used)
	}
	if n := atomic.LoadInt64(&gate); n != 0 {
		t.Errorf("gate = %d after the operations, want 0", n)
	}
}

// TestGateOpensMidOperation: a goroutine forked and blocked while the gate
// was closed is ordered by an edge completed after it opened, and is not
// ordered by anything else.
func TestGateOpensMidOperation(t *testing.T) {
	tests := []struct {
		name string
		// block runs in the fresh goroutine, which blocks in it until
		// release, run after the gate opened, lets it go. blocked
		// returns once the goroutine is blocked, as far as can be seen.
		block, blocked, release func(*edge)
		ordered                 bool
	}{
		{
			name:    "channel receive",
			block:   func(e *edge) { Recv(e.ch, nil) },
			blocked: letBlock,
			release: func(e *edge) { Send(e.ch, 1, 0, nil) },
			ordered: true,
		},
		{
			name:    "mutex",
			block:   func(e *edge) { Lock(&e.mu); Unlock(&e.mu) },
			blocked: func(e *edge) { e.mu.Lock(); letBlock(e) },
			release: func(e *edge) { Unlock(&e.mu) },
			ordered: true,
		},
		{
			name:    "WaitGroup",
			block:   func(e *edge) { WaitGroupWait(&e.wg) },
			blocked: letBlock,
			release: func(e *edge) { WaitGroupDone(&e.wg) },
			ordered: true,
		},
		{
			// The goroutine holds mu until CondWait unlocks it, so
			// the test's Lock returns once it waits.
			name: "Cond",
			block: func(e *edge) {
				Lock(&e.mu)
				close(e.raw)
				for !e.flag {
					CondWait(e.cond)
				}
				Unlock(&e.mu)
			},
			blocked: func(e *edge) { <-e.raw; e.mu.Lock() },
			release: func(e *edge) {
				e.flag = true
				CondBroadcast(e.cond)
				Unlock(&e.mu)
			},
			ordered: true,
		},
		{
			// The load that sees the store is made after the gate
			// opened, in an inlined wrapper that tests the gate only
			// after loading.
			name: "atomic load",
			block: func(e *edge) {
				for AtomicLoadInt32(&e.n, 0) == 0 {
					goruntime.Gosched()
				}
			},
			blocked: letBlock,
			release: func(e *edge) { AtomicStoreInt32(&e.n, 1, 0) },
			ordered: true,
		},
		{
			name:    "no edge",
			block:   func(e *edge) { <-e.raw },
			blocked: letBlock,
			release: func(e *edge) { close(e.raw) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			closeGate(t)
			e := newEdge()
			e.wg.Add(1)
			x := heapObject()
			// Each pair of sites is reported once: new ones every run.
			site1, site2 := newSite(), newSite()
			before := Races()

			g := GoFork()
			done := make(chan struct{})
			go func() {
				GoStart(g)
				defer GoEnd()
				tt.block(e)
				Write(x, 8, site1)
				close(done)
			}()
			tt.blocked(e)
			switchSampling(true)
			Write(x, 8, site2) // sampled, after the fork
			tt.release(e)
			<-done
			if got := Races() > before; got == tt.ordered {
				t.Errorf("race reported = %v, want %v", got, !tt.ordered)
			}
		})
	}
}

// letBlock gives a goroutine that is about to block time to do so. The
// test's verdicts do not depend on it; it makes the interesting
// interleaving, blocking before the gate opens, the likely one.
func letBlock(*edge) { time.Sleep(10 * time.Millisecond) }

// An edge holds the synchronization objects of one TestGateOpensMidOperation case.
type edge struct {
	mu   sync.Mutex
	cond *sync.Cond
	flag bool
	n    int32
	ch   chan int
	wg   sync.WaitGroup
	raw  chan struct{} // not seen by the detector
}

func newEdge() *edge {
	e := &edge{ch: make(chan int), raw: make(chan struct{})}
	e.cond = sync.NewCond(&e.mu)
	return e
}
