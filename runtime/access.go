package runtime

import "unsafe"

// Read records a read of size bytes at addr by the current goroutine and
// reports a race with an earlier, unordered write. site identifies the
// access in the instrumented source (see RegisterSites). The instrumenter
// calls Read immediately before the access, with an address it evaluated
// exactly once.
func Read(addr, size uintptr, site uint64) { access(addr, size, site, opRead) }

// Write records a write of size bytes at addr and reports a race with an
// earlier, unordered read or write.
func Write(addr, size uintptr, site uint64) { access(addr, size, site, opWrite) }

// ReadRange records a read of the n bytes starting at addr, as done by
// copy, append, string conversions and whole-array or struct copies.
func ReadRange(addr, n uintptr, site uint64) { access(addr, n, site, opRead) }

// WriteRange records a write of the n bytes starting at addr.
func WriteRange(addr, n uintptr, site uint64) { access(addr, n, site, opWrite) }

// An op is the kind of an access.
type op uint8

const (
	opRead  op = 0
	opWrite op = 1 << iota
	// opAtomic marks an operation of sync/atomic or one the detector
	// models as such (a channel send or close). Two atomic operations
	// never race; an atomic and a plain access to the same bytes can.
	opAtomic
)

// A conflict is the earlier access of a race, copied out of its cell so
// that the report can be written without holding its line's lock.
type conflict struct {
	prev  epoch
	site  uint64
	write bool
	gen   uint32 // the cell's generation, for the reuse check
	// global reports that the granule's history is known to describe
	// the object now at its address: it is a global, which is never
	// reused, or an object whose liveness is known (cell.owned).
	global bool
}

// access is what every hook inlines: while the gate is closed it is a
// load and a branch.
func access(addr, size uintptr, site uint64, o op) {
	if gateOpen() {
		accessGated(addr, size, site, o, nil)
	}
}

// readOf and writeOf are the rest of R and W once the gate is open. The
// size of *p is computed here rather than in the hooks, where it would
// cost a dictionary load and put them over the inliner's budget.
//
//go:noinline
func readOf[T any](p *T, site uint64) {
	if a, n := uintptr(unsafe.Pointer(p)), unsafe.Sizeof(*p); !quiet(a, n) {
		accessGated(a, n, site, opRead, nil)
	}
}

//go:noinline
func writeOf[T any](p *T, site uint64) {
	if a, n := uintptr(unsafe.Pointer(p)), unsafe.Sizeof(*p); !quiet(a, n) {
		accessGated(a, n, site, opWrite, nil)
	}
}

// quiet reports, for R and W to test before they call accessGated,
// whether an access of size bytes at addr certainly has nothing to do: no
// sampling period is on and no page in the filter buckets of its first
// and last byte has history. A value of at most a page lies on those
// two pages; a slice or string header, three words, is the common case
// beyond one word.
func quiet(addr, size uintptr) bool {
	return sampling.Load() == 0 && size <= pageBytes &&
		filterBucket(addr).Load() == 0 && filterBucket(addr+size-1).Load() == 0
}

// accessGated skips, outside sampling periods, accesses to memory without
// history before the full rule.
func accessGated(addr, size uintptr, site uint64, o op, obj *syncVar) {
	if sampling.Load() == 0 {
		if addr&7+size <= 8 {
			// One granule, the common case: hasHistory's loop, inlined.
			if filterBucket(addr).Load() == 0 {
				return
			}
			if p := shadow.peek(addr); p == nil || p.n.Load() == 0 || !p.present(addr) {
				return
			}
		} else if !shadow.hasHistory(addr, size) {
			return
		}
	}
	accessSlow(addr, size, site, o, obj)
}

// accessObject records an access made by an operation of the
// synchronization object sv at addr (a channel's send or close), whose
// liveness the detector knows exactly: its history then survives GC
// cycles for as long as the object lives (cell.owned).
func accessObject(addr, size uintptr, site uint64, o op, sv *syncVar) {
	if gateOpen() {
		accessGated(addr, size, site, o, sv)
	}
}

// accessSlow is the part of access that cannot be inlined.
func accessSlow(addr, size uintptr, site uint64, o op, obj *syncVar) {
	if size == 0 || addr == 0 {
		return
	}
	t := current()
	if t == nil {
		return // a system stack
	}
	if t.g != 0 {
		// The goroutine's own stack holds only data no other goroutine
		// can reach, and it moves when it grows (LARD's fourth rule).
		if lo, hi := stackBounds(t.g); addr >= lo && addr < hi {
			return
		}
	}
	sample := t.sampling()
	write := o&opWrite != 0
	// Atomic operations and a channel's own accesses take the full path:
	// their history has rules of its own.
	var cache *epochCache
	if o&opAtomic == 0 && obj == nil {
		cache = t.epochCache(sample)
	}
	e := t.epoch()
	end := addr + size
	if cache != nil {
		if size > 8 {
			if cache.coveredRange(addr, end, e, write) {
				return
			}
			cache.noteRange(addr, end, e, write)
		} else if a := addr &^ 7; a+8 >= end {
			// One granule: a redundant access is done without its
			// line's lock, and the granule loop below need not consult
			// the cache again.
			mask := granuleMask(a, addr, end)
			if cache.covered(a, e, mask, write) {
				return
			}
			cache.note(a, e, mask, write)
			cache = nil
		}
	}
	reported := false
	for a := addr &^ 7; a < end; {
		// A page at a time, and within it a line at a time under the
		// line's lock; races are reported after it is released.
		lim := min(end, a&^(pageBytes-1)+pageBytes)
		p := shadow.pageOf(a, sample)
		if p == nil {
			a = lim // nothing recorded there, and nothing to record
			continue
		}
		for a < lim {
			// A line at a time, under its lock.
			var first conflict
			found := false
			llim := min(lim, a&^(lineBytes-1)+lineBytes)
			mu := lineLock(a)
			mu.Lock()
			for ; a < llim; a += 8 {
				mask := granuleMask(a, addr, end)
				if cache != nil {
					if cache.covered(a, e, mask, write) {
						continue
					}
					cache.note(a, e, mask, write)
				}
				if cf, ok := accessGranule(t, p, a, mask, site, o, sample, obj); ok && !found {
					first, found = cf, true
				}
			}
			mu.Unlock()
			if found && !reported {
				reported = reportRace(t, addr, size, site, write, first)
			}
		}
	}
}

// granuleMask returns the bytes of the granule at a covered by [lo, hi).
func granuleMask(a, lo, hi uintptr) uint8 {
	from, to := uintptr(0), uintptr(8)
	if lo > a {
		from = lo - a
	}
	if hi < a+8 {
		to = hi - a
	}
	return uint8((uint16(1)<<to - 1) &^ (uint16(1)<<from - 1))
}

// accessGranule runs the read or write rule on one granule: FastTrack's,
// with the read set cleared by writes (Pacer's Algorithms 7 and 8), in a
// sampling period, and Pacer's Algorithms 12 and 13 outside one, which
// check the access against the history but then only discard what
// FastTrack would have overwritten.
//
// a lies in p, and the caller holds a's line lock.
func accessGranule(t *thread, p *page, a uintptr, mask uint8, site uint64, o op, sample bool, obj *syncVar) (cf conflict, found bool) {
	write, atomic := o&opWrite != 0, o&opAtomic != 0
	var c *cell
	gen := gcGen.Load()
	if !p.present(a) {
		if !sample {
			return // nothing recorded, nothing to record
		}
		c = p.insert(a, gen)
	} else if c = p.cell(a); c.expired(gen) {
		// A GC cycle completed since this history began: the granule
		// may belong to a new object now, or, below rate 1, the
		// history has had its time (boundedHistory).
		c.reset(gen)
	}
	if obj != nil && c.object() != obj {
		c.setObject(obj)
	}
	if site&SiteGlobal != 0 {
		c.flags |= cellGlobal
	}
	e := t.epoch()
	if write {
		if c.w == e && c.wmask&mask == mask && (atomic || !c.watomic()) {
			return // same epoch
		}
		cf, found = c.checkWrite(t, mask, atomic)
		c.clearReads(mask)
		if sample {
			c.recordWrite(e, mask, site, atomic)
		} else {
			c.clearWrites(mask)
		}
	} else {
		if c.r == e && c.rmask&mask == mask && (atomic || !c.ratomic()) {
			return // same epoch
		}
		cf, found = c.checkRead(t, mask, atomic)
		if sample {
			c.recordRead(t, e, mask, site, atomic)
		} else {
			c.discardRead(t, mask)
		}
	}
	if !sample && c.empty() {
		p.remove(a)
	}
	return cf, found
}
