package runtime

// A cell is the access history of one 8-byte granule: FastTrack's write
// epoch and read epoch or read set. Each epoch comes with a byte mask of
// the granule's bytes it covers, so that neighbouring byte-sized fields
// accessed by different goroutines do not look like one location.
//
// Cells are stored in place, a page of them for each 4 KiB of memory
// (shadow.go), outside the Go heap where the system allows. The common
// history (one last write, one last read) is kept inline, and the rare
// parts (a read set, writes of other bytes, a synchronization object) in
// an extension, made when one is first needed and kept until the
// history is reset (see trim). The garbage collector does not scan the
// cells, so x alone would not keep an extension alive: extShards holds
// each one as long as its cell points to it (cellext.go). A channel's
// own history is a cell too, kept in its syncVar (chanhist.go).
type cell struct {
	w     epoch // last write, 0 if none
	r     epoch // last read when there is at most one, 0 if none
	wsite uint64
	rsite uint64
	gen   uint32 // GC cycle count (lower bound) when this history began
	wmask uint8  // bytes covered by w
	rmask uint8  // bytes covered by r
	flags cellFlags
	x     *cellExt // kept alive by extShards
}

type cellFlags uint8

const (
	// cellGlobal marks a history known to describe the object at its
	// address for as long as the history lasts: a granule of a global
	// variable, which is never reused, or a channel's own history, which
	// lives and dies with the channel's syncVar.
	cellGlobal cellFlags = 1 << iota
	// cellWAtomic and cellRAtomic report that w and r were atomic
	// operations, which never race with each other.
	cellWAtomic
	cellRAtomic
	// cellReadSet and cellExtraWrites report that the extension holds a
	// read set or writes of other bytes. Every check of a read looks for
	// writes of other bytes, and the flag answers from the cell's own line
	// where the extension's field was a load from another, missed in the
	// cache when the extension holds only a read set.
	cellReadSet
	cellExtraWrites
)

// A cellExt holds the parts of a history that few granules have.
//
// What a read of a read-shared granule needs of it, the read set's first
// two entries and the rs slice's pointer and length, comes first and
// fills the first 64 bytes: in an extension that starts a cache line it
// is one line. (fastcache's BenchmarkCacheGet at rate 1, whose two
// goroutines read every chunk, spent a quarter of accessGranule's time
// on the second line of its extensions' read sets, perf annotate.
// Extensions are in the allocator's 160-byte size class, so half of them
// start a line; padding them to the 192-byte class, where all do, raised
// fastcache's peak RSS by 4-6% and left its time within the noise of 10
// alternating rounds.)
type cellExt struct {
	// rsBuf holds the read set while it has at most two entries, as
	// most have (two goroutines reading the same data), beside rs in the
	// extension's memory: a read set of its own was one more dependent
	// load, missed in the cache, on every access of a read-shared
	// granule.
	rsBuf [2]entry
	// rs is the read set, when concurrent reads are tracked; r is then 0.
	rs []entry
	// wx holds the last writes of bytes that w does not cover, when
	// goroutines write different bytes of the granule (neighbouring byte
	// or int32 variables): forgetting them would hide their races.
	wx []entry

	// spareRS and spareWX keep the arrays of emptied read sets and
	// write lists for the next ones, and an emptied extension is kept
	// for the next cell that needs one (cellext.go), so that a history
	// that keeps gaining and losing its rare parts allocates nothing
	// once warm: testing.AllocsPerRun counts the detector's allocations
	// as the program's.
	spareRS, spareWX []entry

	// shard and slot say where extShards keeps the extension alive.
	shard uint8
	slot  uint32

	// idx finds the entries of a large read set by slot (readindex.go),
	// nil for one of fewer than readIndexMin entries.
	idx *readIndex
}

// An entry is one access in a read set (a goroutine's last read) or in
// wx (the last write of some bytes): its epoch and site, the bytes of the
// granule it covers and whether it was atomic.
type entry struct {
	e      epoch
	site   uint64
	mask   uint8
	atomic bool
}

func (c *cell) global() bool  { return c.flags&cellGlobal != 0 }
func (c *cell) watomic() bool { return c.flags&cellWAtomic != 0 }
func (c *cell) ratomic() bool { return c.flags&cellRAtomic != 0 }

// markGlobal marks the cell as a global variable's if site, an access
// of it, is to a package-level variable.
func (c *cell) markGlobal(site uint64) {
	if site&SiteGlobal != 0 {
		c.flags |= cellGlobal
	}
}

func (c *cell) setFlag(f cellFlags, on bool) {
	if on {
		c.flags |= f
	} else {
		c.flags &^= f
	}
}

// readSet returns the read set, or nil when there is at most one read.
func (c *cell) readSet() []entry {
	if c.flags&cellReadSet == 0 {
		return nil
	}
	return c.x.rs
}

// extraWrites returns the writes of bytes that w does not cover.
func (c *cell) extraWrites() []entry {
	if c.flags&cellExtraWrites == 0 {
		return nil
	}
	return c.x.wx
}

// ext returns the cell's extension, making it if need be.
func (c *cell) ext() *cellExt {
	if c.x == nil {
		c.x = newExt(c)
	}
	return c.x
}

// setReadSet and setExtraWrites store into the extension, making it if
// need be. setReadSet is for a read set whose entries may have moved or
// gone, and reindexes it (readindex.go); recordRead appends.
func (c *cell) setReadSet(rs []entry) {
	if rs != nil || c.x != nil {
		x := c.storeReadSet(rs)
		if x.idx != nil || len(rs) >= readIndexMin {
			x.reindex()
		}
		c.trim()
	}
}

// storeReadSet stores rs as the read set, and returns the extension.
func (c *cell) storeReadSet(rs []entry) *cellExt {
	x := c.ext()
	x.store(rs)
	c.setFlag(cellReadSet, rs != nil)
	return x
}

// store stores rs as the read set, keeping its array for the next one.
// It is small enough to inline, so that recordRead's append makes no call
// that checks the stack (TestAccessFitsNewStack).
func (x *cellExt) store(rs []entry) {
	x.rs = rs
	if cap(rs) > cap(x.spareRS) {
		x.spareRS = rs[:0]
	}
}

func (c *cell) setExtraWrites(wx []entry) {
	if wx != nil || c.x != nil {
		x := c.ext()
		x.wx = wx
		c.setFlag(cellExtraWrites, wx != nil)
		if cap(wx) > cap(x.spareWX) {
			x.spareWX = wx[:0]
		}
		c.trim()
	}
}

// newReadSet and newExtraWrites return an empty list to start a read
// set or a write list with, reusing a spare array.
func (c *cell) newReadSet() []entry {
	x := c.ext()
	if x.spareRS == nil {
		x.spareRS = x.rsBuf[:0]
	}
	return x.spareRS[:0]
}
func (c *cell) newExtraWrites() []entry { return c.ext().spareWX[:0] }

// trim is called when a part of the extension may have emptied. An
// emptied extension stays with its cell until the cell's history is reset
// (reset, page.remove), so that a history whose rare parts come and go
// does not make and drop one each time under a shard lock: a header buffer
// rewritten a few bytes at a time moves a previous write of other bytes
// aside and back at every request, and making and dropping its extensions
// took 9% of fasthttp's ServerGet at rate 1. It holds no more than the
// history it belongs to: heap histories end at the first access after a
// GC cycle or in the sweeper. Only a read set of many goroutines' array
// is let go, as dropExt lets it go.
func (c *cell) trim() {
	if x := c.x; x.rs == nil && cap(x.spareRS) > maxSpareEntries {
		x.spareRS = nil
	}
}

// drop deletes the cell's extension, if it has one.
func (c *cell) drop() {
	if x := c.x; x != nil {
		c.x = nil
		c.flags &^= cellReadSet | cellExtraWrites
		dropExt(x)
	}
}

// reset replaces the cell's history by an empty one begun at GC count
// gen.
func (c *cell) reset(gen uint32) {
	c.drop()
	*c = cell{gen: gen}
}

// empty reports whether the cell holds no history.
func (c *cell) empty() bool {
	return c.w == 0 && c.r == 0 && c.readSet() == nil && c.extraWrites() == nil
}

// checkWrite reports whether an earlier access races with a write of the
// bytes mask by t, and stores the first such access in *cf. Nothing is
// stored otherwise: the common answer is no, and returning a zero
// conflict by value cost a tenth of the instructions of fasthttp's
// accesses at rate 1 in zeroing it.
func (c *cell) checkWrite(t *thread, mask uint8, atomic bool, cf *conflict) bool {
	if c.checkPriorWrite(t, mask, atomic, cf) {
		return true
	}
	rs := c.readSet()
	if rs == nil {
		if c.readMayRace(mask, atomic) && !t.ordered(c.r) {
			*cf = c.conflictWith(c.r, c.rsite, false)
			return true
		}
		return false
	}
	for _, re := range rs {
		if re.mask&mask != 0 && !(atomic && re.atomic) && !t.ordered(re.e) {
			*cf = c.conflictWith(re.e, re.site, false)
			return true
		}
	}
	return false
}

// checkRead reports whether an earlier write races with a read of the
// bytes mask by t, and stores it in *cf if so.
func (c *cell) checkRead(t *thread, mask uint8, atomic bool, cf *conflict) bool {
	return c.checkPriorWrite(t, mask, atomic, cf)
}

func (c *cell) checkPriorWrite(t *thread, mask uint8, atomic bool, cf *conflict) bool {
	if c.writeMayRace(mask, atomic) && !t.ordered(c.w) {
		*cf = c.conflictWith(c.w, c.wsite, true)
		return true
	}
	for _, we := range c.extraWrites() {
		if we.mask&mask != 0 && !(atomic && we.atomic) && !t.ordered(we.e) {
			*cf = c.conflictWith(we.e, we.site, true)
			return true
		}
	}
	return false
}

// conflictWith returns the earlier access at epoch e and site, a write
// or a read, found in the cell's history, as a race's report needs it.
func (c *cell) conflictWith(e epoch, site uint64, write bool) conflict {
	return conflict{e, site, write, c.gen, c.global()}
}

// writeMayRace reports whether the last write w is one that an access of
// the bytes mask, atomic or not, races with unless it is ordered after
// it: w covers some of those bytes, and the two are not both atomic.
// The order itself (thread.ordered) is left to the caller, which keeps
// this within the inliner's budget.
func (c *cell) writeMayRace(mask uint8, atomic bool) bool {
	return c.w != 0 && c.wmask&mask != 0 && !(atomic && c.watomic())
}

// readMayRace is writeMayRace for the inline read epoch r and a write.
func (c *cell) readMayRace(mask uint8, atomic bool) bool {
	return c.r != 0 && c.rmask&mask != 0 && !(atomic && c.ratomic())
}

// recordWrite records a write of the bytes mask at epoch e, replacing the
// last writes of those bytes and keeping those of the others.
func (c *cell) recordWrite(e epoch, mask uint8, site uint64, atomic bool) {
	if c.w == e && c.watomic() == atomic {
		c.wmask |= mask
		c.wsite = site
		c.clearExtraWrites(mask)
		return
	}
	c.clearWrites(mask)
	if c.w != 0 {
		// Bytes of another write remain: it moves aside.
		wx := c.extraWrites()
		if wx == nil {
			wx = c.newExtraWrites()
		}
		c.setExtraWrites(append(wx, entry{c.w, c.wsite, c.wmask, c.watomic()}))
	}
	c.w, c.wmask, c.wsite = e, mask, site
	c.setFlag(cellWAtomic, atomic)
}

// clearWrites forgets the last writes of the bytes mask.
func (c *cell) clearWrites(mask uint8) {
	if c.wmask &^= mask; c.wmask == 0 {
		c.w = 0
		c.setFlag(cellWAtomic, false)
	}
	c.clearExtraWrites(mask)
}

func (c *cell) clearExtraWrites(mask uint8) {
	if wx := c.extraWrites(); wx != nil {
		c.setExtraWrites(clearMask(wx, mask))
	}
}

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
	rs := c.readSet()
	if rs == nil {
		if c.rmask &^= mask; c.rmask == 0 {
			c.r = 0
		}
		return
	}
	c.setReadSet(clearMask(rs, mask))
}

// sameEpoch reports whether an access of the bytes mask at epoch e, a write
// or a read, atomic or not, repeats the cell's last write (or read),
// whose epoch is last: FastTrack's same-epoch rule. An atomic access
// repeats a plain one or an atomic one, a plain access only a plain one
// (see epochCache.covered).
func (c *cell) sameEpoch(last, e epoch, mask uint8, write, atomic bool) bool {
	if write {
		return last == e && c.wmask&mask == mask && (atomic || !c.watomic())
	}
	return last == e && c.rmask&mask == mask && (atomic || !c.ratomic())
}

// repeats reports whether an access o of the bytes mask at epoch e is
// redundant given the cell's last write and read, at epochs w and r:
// FastTrack's same-epoch rules (sameEpoch), and, if written is set, a
// read of bytes that the same goroutine wrote in the same epoch, which
// the epoch cache also counts as redundant. Whatever is ordered after
// that write is ordered after the read, which shares its epoch, so an
// access that races with the read races with the write or with a later
// write that replaced it, and is reported against that one: a write's
// check looks at the last write first (checkWrite), so the report is the
// same. Callers set written in sampling periods only: outside them a
// read's work is to discard history that FastTrack would have
// overwritten (accessGranule), which skipping it would keep.
func (c *cell) repeats(w, r, e epoch, mask uint8, o op, written bool) bool {
	atomic := o&opAtomic != 0
	if o&opWrite != 0 {
		return c.sameEpoch(w, e, mask, true, atomic)
	}
	return c.sameEpoch(r, e, mask, false, atomic) || written && c.sameEpoch(w, e, mask, true, atomic)
}

// readSetHas reports whether the read set holds a read of the bytes mask
// at epoch e that an atomic read (atomic) may stand for: FastTrack's
// same-epoch read, which needs no check and changes nothing. A write to
// those bytes since that read would have cleared it (clearReads), so the
// check that read had stands for this one. Answering without a store
// matters when goroutines read the same memory, as matmul's workers read
// their operands: recordRead's stores, which changed nothing, moved the
// read set between their cores' caches at every read.
func (c *cell) readSetHas(e epoch, mask uint8, atomic bool) bool {
	rs := c.readSet()
	if x := c.x; rs != nil && x.idx != nil && !x.idx.dups {
		// One entry a slot: the slot's is the only one that can be at e.
		if i := x.idx.find(rs, e.tid()); i >= 0 && rs[i].e == e {
			return rs[i].mask&mask == mask && (atomic || !rs[i].atomic)
		}
		return false
	}
	for _, r := range rs {
		if r.e == e {
			return r.mask&mask == mask && (atomic || !r.atomic)
		}
	}
	return false
}

// recordRead records t's read of the bytes mask at epoch e.
func (c *cell) recordRead(t *thread, e epoch, mask uint8, site uint64, atomic bool) {
	switch rs := c.readSet(); {
	case rs != nil:
		if i := c.x.readerOf(rs, t.tid); i >= 0 {
			if rs[i].e == e {
				rs[i].mask |= mask
				rs[i].atomic = rs[i].atomic && atomic
			} else {
				rs[i] = entry{e, site, mask, atomic}
			}
			rs[i].site = site
			return
		}
		// A slot without an entry: appended, and indexed once the set
		// is large (readindex.go). Only leaves are called on the way
		// unless the set's array or its index grows: this is the
		// bottom of the access path of a new goroutine's first read
		// of memory that many read, and a call that checks the stack
		// here took it past the 2 KiB it starts with
		// (TestAccessFitsNewStack). rs came from the extension.
		rs = append(rs, entry{e, site, mask, atomic})
		x := c.x
		x.store(rs)
		switch {
		case x.idx != nil && !x.idx.full():
			x.idx.insert(rs, len(rs)-1)
		case len(rs) >= readIndexMin:
			x.reindex()
		}
	default:
		if !c.recordExclusiveRead(t, e, mask, site, atomic) {
			c.shareReads(e, mask, site, atomic)
		}
	}
}

// shareReads records a read of the bytes mask at epoch e that is
// concurrent with the inline read r, or of other bytes, in a read set
// made of the two (FastTrack's read-shared case).
func (c *cell) shareReads(e epoch, mask uint8, site uint64, atomic bool) {
	c.setReadSet(append(c.newReadSet(), entry{c.r, c.rsite, c.rmask, c.ratomic()}, entry{e, site, mask, atomic}))
	c.r, c.rmask = 0, 0
}

// recordExclusiveRead records t's read of the bytes mask at epoch e in a
// cell without a read set when the read joins the inline read r (the same
// epoch) or replaces it (FastTrack's read-exclusive case), and reports
// whether it did; otherwise it changes nothing.
func (c *cell) recordExclusiveRead(t *thread, e epoch, mask uint8, site uint64, atomic bool) bool {
	switch {
	case c.r == e:
		c.rmask |= mask
		c.rsite = site
		c.setFlag(cellRAtomic, c.ratomic() && atomic)
	case c.r == 0 || t.ordered(c.r) && c.rmask&^mask == 0:
		// The previous read is ordered before this one and covers no
		// other bytes: any later access that races with it races with
		// this one too, so it can be forgotten (FastTrack's
		// read-exclusive case).
		c.r, c.rmask, c.rsite = e, mask, site
		c.setFlag(cellRAtomic, atomic)
	default:
		return false
	}
	return true
}

// discardRead is Pacer's read outside a sampling period: the read is not
// recorded, and the reads it would have replaced are forgotten, since
// they are no longer the last access a future race could be reported with.
func (c *cell) discardRead(t *thread, mask uint8) {
	rs := c.readSet()
	if rs == nil {
		if c.r != 0 && t.ordered(c.r) {
			if c.rmask &^= mask; c.rmask == 0 {
				c.r = 0
			}
		}
		return
	}
	if i := c.x.readerOf(rs, t.tid); i >= 0 {
		if rs[i].mask &^= mask; rs[i].mask == 0 {
			rs = append(rs[:i], rs[i+1:]...)
			if len(rs) == 0 {
				rs = nil
			}
			c.setReadSet(rs)
		}
	}
}
