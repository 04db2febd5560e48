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
// that the report can be written without holding the page's lock.
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
	accessGated(uintptr(unsafe.Pointer(p)), unsafe.Sizeof(*p), site, opRead, nil)
}

//go:noinline
func writeOf[T any](p *T, site uint64) {
	accessGated(uintptr(unsafe.Pointer(p)), unsafe.Sizeof(*p), site, opWrite, nil)
}

// accessGated checks the filter before the full rule.
func accessGated(addr, size uintptr, site uint64, o op, obj *syncVar) {
	if skip(addr, size) {
		return
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
	if size == 0 || addr == 0 || size > 8 && skipRange(addr, size) {
		return
	}
	t := current()
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
	if sample && o&opAtomic == 0 && obj == nil {
		if t.cache == nil {
			t.cache = new(epochCache)
		}
		cache = t.cache
	}
	e := t.epoch()
	end := addr + size
	reported := false
	for a := addr &^ 7; a < end; {
		// A page at a time, under its lock; races are reported after it
		// is released.
		lim := min(end, a&^(pageBytes-1)+pageBytes)
		p := shadow.pageOf(a, sample)
		if p == nil {
			a = lim // nothing recorded there, and nothing to record
			continue
		}
		var first conflict
		found := false
		p.mu.Lock()
		for ; a < lim; a += 8 {
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
		p.mu.Unlock()
		if found && !reported {
			reported = reportRace(t, addr, size, site, write, first)
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
// a lies in p, whose lock the caller holds.
func accessGranule(t *thread, p *page, a uintptr, mask uint8, site uint64, o op, sample bool, obj *syncVar) (cf conflict, found bool) {
	write, atomic := o&opWrite != 0, o&opAtomic != 0
	slot := p.slot(a)
	c := *slot
	gen := gcGen.Load()
	if c == nil {
		if !sample {
			return // nothing recorded, nothing to record
		}
		c = &cell{gen: gen}
		p.insert(a, slot, c)
	} else if c.gen < gen && !c.global && !c.owned() {
		// A GC cycle completed since this history began: the granule
		// may belong to a new object now.
		*c = cell{gen: gen}
	}
	if obj != nil && c.obj != obj {
		c.obj = obj
	}
	if site&SiteGlobal != 0 {
		c.global = true
	}
	e := t.epoch()
	if write {
		if c.w == e && c.wmask&mask == mask && (atomic || !c.watomic) {
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
		if c.rs == nil && c.r == e && c.rmask&mask == mask && (atomic || !c.ratomic) {
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
		p.remove(a, slot)
	}
	return cf, found
}

// checkWrite returns the first earlier access that races with a write of
// the bytes mask by t.
func (c *cell) checkWrite(t *thread, mask uint8, atomic bool) (conflict, bool) {
	if cf, ok := c.checkPriorWrite(t, mask, atomic); ok {
		return cf, true
	}
	if c.rs == nil {
		if c.rmask&mask != 0 && !(atomic && c.ratomic) && !t.ordered(c.r) {
			return conflict{c.r, c.rsite, false, c.gen, c.global || c.owned()}, true
		}
		return conflict{}, false
	}
	for _, re := range c.rs {
		if re.mask&mask != 0 && !(atomic && re.atomic) && !t.ordered(re.e) {
			return conflict{re.e, re.site, false, c.gen, c.global || c.owned()}, true
		}
	}
	return conflict{}, false
}

// checkRead returns the earlier write that races with a read of the bytes
// mask by t, if any.
func (c *cell) checkRead(t *thread, mask uint8, atomic bool) (conflict, bool) {
	return c.checkPriorWrite(t, mask, atomic)
}

func (c *cell) checkPriorWrite(t *thread, mask uint8, atomic bool) (conflict, bool) {
	if c.w != 0 && c.wmask&mask != 0 && !(atomic && c.watomic) && !t.ordered(c.w) {
		return conflict{c.w, c.wsite, true, c.gen, c.global || c.owned()}, true
	}
	for _, we := range c.wx {
		if we.mask&mask != 0 && !(atomic && we.atomic) && !t.ordered(we.e) {
			return conflict{we.e, we.site, true, c.gen, c.global || c.owned()}, true
		}
	}
	return conflict{}, false
}

// recordWrite records a write of the bytes mask at epoch e, replacing the
// last writes of those bytes and keeping those of the others.
func (c *cell) recordWrite(e epoch, mask uint8, site uint64, atomic bool) {
	if c.w == e && c.watomic == atomic {
		c.wmask |= mask
		c.wsite = site
		c.clearExtraWrites(mask)
		return
	}
	c.clearWrites(mask)
	if c.w != 0 {
		// Bytes of another write remain: it moves aside.
		c.wx = append(c.wx, entry{c.w, c.wsite, c.wmask, c.watomic})
	}
	c.w, c.wmask, c.wsite, c.watomic = e, mask, site, atomic
}

// clearWrites forgets the last writes of the bytes mask.
func (c *cell) clearWrites(mask uint8) {
	if c.wmask &^= mask; c.wmask == 0 {
		c.w, c.watomic = 0, false
	}
	c.clearExtraWrites(mask)
}

func (c *cell) clearExtraWrites(mask uint8) { c.wx = clearMask(c.wx, mask) }

// clearMask removes the bytes mask from every entry of es and drops the
// entries left with none, returning nil for an empty list.
func clearMask(es []entry, mask uint8) []entry {
	j := 0
	for _, e := range es {
		if e.mask &^= mask; e.mask != 0 {
			es[j] = e
			j++
		}
	}
	clear(es[j:])
	if j == 0 {
		return nil
	}
	return es[:j]
}

// clearReads forgets the reads of the bytes mask, which a write to them
// supersedes: each was checked against the write, and a later access
// that races with one of them races with the write too.
func (c *cell) clearReads(mask uint8) {
	if c.rs == nil {
		if c.rmask &^= mask; c.rmask == 0 {
			c.r = 0
		}
		return
	}
	c.rs = clearMask(c.rs, mask)
}

// recordRead records t's read of the bytes mask at epoch e.
func (c *cell) recordRead(t *thread, e epoch, mask uint8, site uint64, atomic bool) {
	switch {
	case c.rs != nil:
		for i := range c.rs {
			if c.rs[i].e.tid() == t.tid {
				if c.rs[i].e == e {
					c.rs[i].mask |= mask
					c.rs[i].atomic = c.rs[i].atomic && atomic
				} else {
					c.rs[i] = entry{e, site, mask, atomic}
				}
				c.rs[i].site = site
				return
			}
		}
		c.rs = append(c.rs, entry{e, site, mask, atomic})
	case c.r == e:
		c.rmask |= mask
		c.ratomic = c.ratomic && atomic
		c.rsite = site
	case c.r == 0 || t.ordered(c.r) && c.rmask&^mask == 0:
		// The previous read is ordered before this one and covers no
		// other bytes: any later access that races with it races with
		// this one too, so it can be forgotten (FastTrack's
		// read-exclusive case).
		c.r, c.rmask, c.rsite, c.ratomic = e, mask, site, atomic
	default:
		// Concurrent reads, or reads of other bytes: keep them all
		// (read-shared).
		c.rs = append(make([]entry, 0, 4), entry{c.r, c.rsite, c.rmask, c.ratomic}, entry{e, site, mask, atomic})
		c.r, c.rmask = 0, 0
	}
}

// discardRead is Pacer's read outside a sampling period: the read is not
// recorded, and the reads it would have replaced are forgotten, since
// they are no longer the last access a future race could be reported with.
func (c *cell) discardRead(t *thread, mask uint8) {
	if c.rs == nil {
		if c.r != 0 && t.ordered(c.r) {
			if c.rmask &^= mask; c.rmask == 0 {
				c.r = 0
			}
		}
		return
	}
	for i := range c.rs {
		if c.rs[i].e.tid() == t.tid {
			if c.rs[i].mask &^= mask; c.rs[i].mask == 0 {
				c.rs = append(c.rs[:i], c.rs[i+1:]...)
				if len(c.rs) == 0 {
					c.rs = nil
				}
			}
			return
		}
	}
}

// empty reports whether the cell holds no history.
func (c *cell) empty() bool { return c.w == 0 && c.wx == nil && c.r == 0 && c.rs == nil }
