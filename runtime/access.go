package runtime

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
// that the report can be written without holding the shard lock.
type conflict struct {
	prev  epoch
	site  uint64
	write bool
	gen   uint32 // the cell's generation, for the reuse check
	// global reports that the granule belongs to a global, which is
	// never reused.
	global bool
}

func access(addr, size uintptr, site uint64, o op) {
	if size == 0 || addr == 0 {
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
	end := addr + size
	reported := false
	for a := addr &^ 7; a < end; a += 8 {
		cf, ok := accessGranule(t, a, granuleMask(a, addr, end), site, o)
		if ok && !reported {
			reported = reportRace(t, addr, size, site, o&opWrite != 0, cf)
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

// accessGranule runs FastTrack's read or write rule (with Pacer's read-map
// clearing, its Algorithms 7 and 8) on one granule.
func accessGranule(t *thread, a uintptr, mask uint8, site uint64, o op) (cf conflict, found bool) {
	write, atomic := o&opWrite != 0, o&opAtomic != 0
	sh := granuleShard(a)
	sh.mu.Lock()
	c := sh.m[a]
	gen := gcGen.Load()
	if c == nil {
		if sh.m == nil {
			sh.m = make(map[uintptr]*cell)
		}
		c = &cell{gen: gen}
		sh.m[a] = c
	} else if c.gen < gen && !c.global {
		// A GC cycle completed since this history began: the granule
		// may belong to a new object now.
		*c = cell{gen: gen}
	}
	if site&SiteGlobal != 0 {
		c.global = true
	}
	e := t.epoch()
	if write {
		if c.w == e && c.wmask&mask == mask && (atomic || !c.watomic) {
			sh.mu.Unlock()
			return // same epoch
		}
		if c.w != 0 && c.wmask&mask != 0 && !(atomic && c.watomic) && !t.ordered(c.w) {
			cf, found = conflict{c.w, c.wsite, true, c.gen, c.global}, true
		}
		if c.rs == nil {
			if c.rmask&mask != 0 {
				if !found && !(atomic && c.ratomic) && !t.ordered(c.r) {
					cf, found = conflict{c.r, c.rsite, false, c.gen, c.global}, true
				}
				if c.rmask &^= mask; c.rmask == 0 {
					c.r = 0
				}
			}
		} else {
			j := 0
			for _, re := range c.rs {
				if re.mask&mask != 0 {
					if !found && !(atomic && re.atomic) && !t.ordered(re.e) {
						cf, found = conflict{re.e, re.site, false, c.gen, c.global}, true
					}
					re.mask &^= mask
				}
				if re.mask != 0 {
					c.rs[j] = re
					j++
				}
			}
			clear(c.rs[j:])
			c.rs = c.rs[:j]
		}
		if c.w == e {
			c.wmask |= mask
			c.watomic = c.watomic && atomic
		} else {
			c.w, c.wmask, c.watomic = e, mask, atomic
		}
		c.wsite = site
		sh.mu.Unlock()
		return
	}

	if c.rs == nil && c.r == e && c.rmask&mask == mask && (atomic || !c.ratomic) {
		sh.mu.Unlock()
		return // same epoch
	}
	if c.w != 0 && c.wmask&mask != 0 && !(atomic && c.watomic) && !t.ordered(c.w) {
		cf, found = conflict{c.w, c.wsite, true, c.gen, c.global}, true
	}
	switch {
	case c.rs != nil:
		for i := range c.rs {
			if c.rs[i].e.tid() == t.tid {
				if c.rs[i].e == e {
					c.rs[i].mask |= mask
					c.rs[i].atomic = c.rs[i].atomic && atomic
				} else {
					c.rs[i] = readEntry{e, site, mask, atomic}
				}
				c.rs[i].site = site
				sh.mu.Unlock()
				return
			}
		}
		c.rs = append(c.rs, readEntry{e, site, mask, atomic})
	case c.r == e:
		c.rmask |= mask
		c.ratomic = c.ratomic && atomic
		c.rsite = site
	case c.r == 0 || t.ordered(c.r):
		// The previous read is ordered before this one: any later
		// access that races with it races with this one too, so it can
		// be forgotten (FastTrack's read-exclusive case).
		c.r, c.rmask, c.rsite, c.ratomic = e, mask, site, atomic
	default:
		// Concurrent reads: keep them all (read-shared).
		c.rs = append(make([]readEntry, 0, 4), readEntry{c.r, c.rsite, c.rmask, c.ratomic}, readEntry{e, site, mask, atomic})
		c.r, c.rmask = 0, 0
	}
	sh.mu.Unlock()
	return
}
