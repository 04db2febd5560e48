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

// release gives the memory of p's cells back to the system if p has no
// history and the cells may have been written since they last were.
// Cells without history are all zeros, and memory given back reads as
// zeros, so what a later access finds is the same either way; what must
// not happen is a cell written between the test and the return, which
// would lose it. Every write of a cell, and every change of p's count,
// is made under the lock of the cell's line, so release takes the locks
// of all p's lines, in one order, to test and give back. Only the
// sweeper holds more than one line lock at a time, so the order cannot
// deadlock with an access.
func (p *page) release() {
	if !p.mapped || !p.dirty.Load() || !cellsDiscardable() {
		return
	}
	var locks lineLockSet
	locks.add(p.base, p.base+pageBytes)
	locks.lock()
	defer locks.unlock()
	if p.n.Load() != 0 {
		return
	}
	if discardMemory(unsafe.Pointer(p.c), unsafe.Sizeof(*p.c)) {
		p.dirty.Store(false)
	}
}

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
