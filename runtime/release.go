package runtime

import (
	"math/bits"
	"unsafe"
)

// Below rate 1 the shadow gives the memory of a page's cells back to the
// system when the sweeper, which passes after each GC cycle and each
// expiry, finds the page empty: it removed the last cell itself, or
// accesses outside sampling periods did (Pacer's rules discard history).
// Pages are never freed (shadow.go), so without this the resident shadow
// grew with every 4 KiB of memory that any sampling period had touched
// since the program began: 24 KiB of cells for each, though the history
// they held was forgotten a few periods later (expire.go) or at the next
// GC cycle (heap.go). Given back, the shadow holds what the history still
// alive needs, and peak RSS at a low rate follows what a few sampling
// periods touch rather than all the memory the program ever used.
//
// At rate 1 cells are not given back: every GC cycle ends the history of
// the heap, whose next accesses would fault the same memory in again at
// once (docs/runtime.md, "GC generations and memory reuse").

// releaseRun is the most pages whose cell memory a releaser gives back
// in one call.
const releaseRun = 16

// A releaser gives back the cell memory of the pages a sweep finds
// empty, a run of pages whose cell arrays lie back to back at a time.
// Each call of the system flushes the TLB of every processor running the
// program, an interrupt to each: with one call per page, hashpool's test
// binary at rate 0.01 made 4,079 of them in a run of its benchmark and
// spent 8% of its CPU time in madvise. Pages are made, and their arrays
// carved from a chunk, in the order that the sweeper visits them, so
// neighbours in that order are usually neighbours in memory.
//
// A page's cell memory may be given back if it has no history and the
// cells may have been written since they last were. Cells without
// history are all zeros, and memory given back reads as zeros, so what a
// later access finds is the same either way; what must not happen is a
// cell written between the test and the return, which would lose it.
// Every write of a cell, and every change of a page's count, is made
// under the lock of the cell's line, so flush takes the locks of all the
// run's lines, in one order, to test and give back. Only the sweeper
// holds more than one line lock at a time, so the order cannot deadlock
// with an access; a run holds them for one call of at most releaseRun
// pages' cells (384 KiB).
type releaser struct {
	run [releaseRun]*page
	n   int
}

// add queues p's cell memory to be given back, if it is the system's to
// take back and may have been written.
func (r *releaser) add(p *page) {
	if !p.mapped || !p.dirty.Load() || !cellsDiscardable() {
		return
	}
	if r.n == len(r.run) || r.n > 0 && unsafe.Add(unsafe.Pointer(r.run[r.n-1].c), cellArena.size) != unsafe.Pointer(p.c) {
		r.flush()
	}
	r.run[r.n] = p
	r.n++
}

// flush gives back the cell memory of the queued pages that are still
// empty, with one call for each stretch of them.
func (r *releaser) flush() {
	run := r.run[:r.n]
	r.n = 0 // the next add overwrites the queue, after this returns
	if len(run) == 0 {
		return
	}
	var locks lineLockSet
	for _, p := range run {
		locks.add(p.base, p.base+pageBytes)
	}
	locks.lock()
	defer locks.unlock()
	for i := 0; i < len(run); {
		if run[i].n.Load() != 0 {
			i++
			continue
		}
		j := i + 1
		for j < len(run) && run[j].n.Load() == 0 {
			j++
		}
		if discard(unsafe.Pointer(run[i].c), uintptr(j-i)*cellArena.size) {
			for _, p := range run[i:j] {
				p.dirty.Store(false)
			}
		}
		i = j
	}
}

// discard is discardMemory, which tests replace to see the calls.
var discard = discardMemory

// A lineLockSet is a set of line locks (shadow.go), which several lines
// may share, to be taken in the order of their indices.
type lineLockSet [lineLockCount / 64]uint64

// add adds the locks of the lines of [lo, hi).
func (s *lineLockSet) add(lo, hi uintptr) {
	for a := lo &^ (lineBytes - 1); a < hi; a += lineBytes {
		i := lineLockIndex(a)
		s[i/64] |= 1 << (i % 64)
	}
}

// lock acquires the locks of s in increasing index order.
func (s *lineLockSet) lock() { s.each(func(l *spinLock) { l.Lock() }) }

// unlock releases the locks of s.
func (s *lineLockSet) unlock() { s.each(func(l *spinLock) { l.Unlock() }) }

func (s *lineLockSet) each(f func(*spinLock)) {
	for w, m := range s {
		for ; m != 0; m &= m - 1 {
			f(&lineLocks[w*64+bits.TrailingZeros64(m)].spinLock)
		}
	}
}
