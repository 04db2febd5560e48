package runtime

import "sync/atomic"

// A goroutine that works on memory of its own accesses it again after
// each synchronization operation: a worker that fills its buffers for
// every request, a merge that writes its output at every level of its
// recursion. Each release starts a new epoch, so neither the epoch cache
// nor a same-epoch test answers these accesses, and each took the line's
// lock to replace the goroutine's own last access with the same access at
// a later epoch.
//
// settles makes that replacement without the lock (its own step), as a
// compare-and-swap of the one epoch that changes, when it is all that
// changes: the cell has no extension, and its last write (for a write) or
// read (for a read) is the goroutine's own, of the same bytes, from the
// same site, as atomic as this one. Every other field stays as it is, so
// a lock holder that reads the cell while the swap happens sees either
// state whole.
//
// The swap can lose a race but not invent one. Only the goroutine itself
// stores an epoch of its slot into w or r (lock holders store their own
// epochs, or copy the cell's into an extension; a slot that has ever been
// shared by two live goroutines is left to the lock, and a goroutine that
// shares the slot from now on starts past every epoch of t's so far), and
// it is running here, so a swap that succeeds replaced the epoch it read
// with nothing stored in between; and since the other fields already
// describe the new access, the cell then holds its history exactly as the
// lock's path would, except as below. A lock holder that changes the cell
// at the same time either stores w or r after the swap, replacing the new
// epoch by its own access (the two accesses were concurrent, and a race
// between them is lost), or before it, and the swap fails and the access
// takes the lock's path. Removing the history zeroes w and r before
// anything else can be stored in them, and the swap never replaces a
// zero.
//
// What the lock's path would do differently: a write by the lock's path
// forgets a read of its bytes (clearReads), which a swapped write leaves
// in place when it is the goroutine's own. That read is ordered before
// the write, which covers its bytes, so any later access that races with
// it races with the write too and is reported with the write, which
// checkWrite looks at first: the reports are the same. The exception is a
// plain read under an atomic write, which a later atomic write races with
// while the write does not: an atomic write swaps only over no read or an
// atomic one. TestCellOwnStep checks these claims on every combination of
// its epochs, masks and atomicity.

// settles reports whether t's access o of the bytes mask at epoch e from
// site needs nothing more than it can do without the line's lock, which
// the caller then need not take. It is two tests in one, which load the
// cell's epochs once:
//
//   - holds: the cell holds an access at epoch e, of the bytes mask at
//     least, that makes this one redundant: the rules of repeats, as
//     accessGranule applies them (the read-set case excepted), with a
//     read after a write of the same epoch redundant in a sampling period
//     (sample), on history that has not expired by the GC cycle count gen.
//     Most accesses that miss the epoch cache are such repeats (msort's
//     merges write each element again at every level of one goroutine's
//     recursion, and read the elements its copies just wrote), and the
//     line lock's atomic instruction, which waits for the stores before
//     it, cost a fifth of msort's time at rate 1.
//   - the own step, in a sampling period: the access replaces t's own
//     last access of its kind, as described above, and the swap
//     records it. When settles reports false nothing has changed.
//
// The fields are read while other goroutines may write them under the
// lock, so the first answer may rest on a state no lock holder saw: e
// with the mask another goroutine's write just put in place of this
// one's, say. An access wrongly found redundant is skipped, which can
// lose a report but never make one, as the epoch cache's skips
// (epochcache.go). Only this goroutine ever stores e, so a cell that
// holds e held it when this goroutine last recorded, or still holds it.
//
// It is one function without calls because accessOne asks it about every
// access that the epoch cache does not answer: as holds (itself a call of
// repeats) and then an ownStep, its first design, the calls spilled their
// arguments at each step (bench/ops's AtomicAdd at rate 1 in callgrind:
// 127 million instructions in those functions, 79 an access).
func (c *cell) settles(t *thread, e epoch, mask uint8, site uint64, o op, gen uint32, sample bool) bool {
	at := o&opAtomic != 0
	w := epoch(atomic.LoadUint64((*uint64)(&c.w)))
	if o&opWrite != 0 {
		if c.sameEpoch(w, e, mask, true, at) {
			return c.gen >= gen // holds
		}
		// The tests that decline most accesses come first: most
		// histories a goroutine finds are not its own.
		if !sample || !t.owns(w) || c.wmask != mask || c.wsite != site || c.watomic() != at || !c.swappable(t, site, gen) {
			return false
		}
		if r := epoch(atomic.LoadUint64((*uint64)(&c.r))); r != 0 && (!t.owns(r) || at && !c.ratomic()) {
			return false
		}
		return atomic.CompareAndSwapUint64((*uint64)(&c.w), uint64(w), uint64(e))
	}
	r := epoch(atomic.LoadUint64((*uint64)(&c.r)))
	if c.sameEpoch(r, e, mask, false, at) || sample && c.sameEpoch(w, e, mask, true, at) {
		return c.gen >= gen // holds
	}
	if !sample || !t.owns(r) || c.rmask != mask || c.rsite != site || c.ratomic() != at || !c.swappable(t, site, gen) {
		return false
	}
	// readStep's check of the last write, made stricter: any write not
	// ordered before t goes to the lock's path, which reports it if it
	// races. It is loaded again, after r, the swap's other input.
	if w := epoch(atomic.LoadUint64((*uint64)(&c.w))); w != 0 && !t.ordered(w) {
		return false
	}
	return atomic.CompareAndSwapUint64((*uint64)(&c.r), uint64(r), uint64(e))
}

// swappable reports whether a history that settles' own-step tests accept
// may be swapped: it has no extension, it has not expired by the GC
// count gen, it has the mark of a global if site is one, and t's slot
// has never been shared.
func (c *cell) swappable(t *thread, site uint64, gen uint32) bool {
	return c.x == nil && c.gen >= gen && (site&SiteGlobal == 0 || c.global()) && !wasShared(t.tid)
}

// owns reports whether e is an epoch of t's slot, not zero. Accesses at
// such epochs are t's own or those of the slot's earlier holders, whose
// clock t continues (slots.go), and are ordered before t's: an access of
// t at a later epoch needs no check against them.
func (t *thread) owns(e epoch) bool { return e != 0 && e.tid() == t.tid }

// ownSteps records t's sampled access o at epoch e, of [addr, end) from
// site, in the granules from a up to lim, which lie in p and in one line,
// with settles, as long as it can: it returns the first granule it did
// not settle, or lim. A granule that settles finds redundant is one that
// accessGranule's rule would leave as it is.
func (p *page) ownSteps(t *thread, a, lim, addr, end uintptr, e epoch, site uint64, o op, gen uint32) uintptr {
	for ; a < lim; a += 8 {
		if !p.present(a) || !p.cell(a).settles(t, e, granuleMask(a, addr, end), site, o, gen, true) {
			break
		}
	}
	return a
}
