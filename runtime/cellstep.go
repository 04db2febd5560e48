package runtime

// The rules of a sampled access in one step, for the history most
// granules have: a last write and a last read inline, and no read set
// or writes of other bytes set aside in an extension. cell.apply applies
// the general rules (checkWrite, clearReads and recordWrite for a write;
// checkRead and recordRead for a read), each a call of its own that looks
// for the extension, for everything else. The steps below make the same
// decisions with the same pieces (writeMayRace, readMayRace,
// conflictWith, recordExclusiveRead, shareReads); TestCellSteps checks
// them against the general rules on every combination of epochs, masks
// and atomicity it can make.
//
// A range access checks and records every granule it covers, and those
// granules were most of the accesses of fasthttp at rate 1: of 4.1 million
// accessGranule calls in 5,000 requests of ServerGet10ReqPerConn, 3.4
// million came from the ranges' loop, and each went through five to seven
// calls of the general rules.

// oneStep reports whether a sampled access o of the bytes mask takes one
// step here: the cell has no read set and no writes of other bytes (an
// extension it keeps emptied holds nothing the steps would consult) and,
// for a write, its last write covers no byte outside mask. A header
// buffer rewritten a few bytes at a time keeps such an extension
// (cell.trim), and its granules took the general rules' calls while the
// extension had to be absent.
func (c *cell) oneStep(mask uint8, o op) bool {
	return c.flags&(cellReadSet|cellExtraWrites) == 0 && (o&opWrite == 0 || c.wmask&^mask == 0)
}

// step records t's sampled access o of the bytes mask at epoch e by
// writeStep or readStep, where oneStep allows, and reports whether an
// earlier access races with it, as they do. The caller holds the
// granule's line lock, has found the access no repeat (cell.repeats) and
// has marked a global's cell (markGlobal).
func (c *cell) step(t *thread, e epoch, mask uint8, site uint64, o op, cf *conflict) bool {
	if o&opWrite != 0 {
		return c.writeStep(t, e, mask, site, o&opAtomic != 0, cf)
	}
	return c.readStep(t, e, mask, site, o&opAtomic != 0, cf)
}

// writeStep records t's sampled write of the bytes mask at epoch e in a
// cell without an extension whose last write covers no byte outside mask
// (so none moves aside), and reports whether an earlier access races with
// it, storing the first in *cf, as checkWrite does.
func (c *cell) writeStep(t *thread, e epoch, mask uint8, site uint64, atomic bool, cf *conflict) bool {
	found := false
	if c.writeMayRace(mask, atomic) && !t.ordered(c.w) {
		*cf = c.conflictWith(c.w, c.wsite, true)
		found = true
	} else if c.readMayRace(mask, atomic) && !t.ordered(c.r) {
		*cf = c.conflictWith(c.r, c.rsite, false)
		found = true
	}
	// clearReads: the write supersedes the reads of its bytes.
	if c.rmask &^= mask; c.rmask == 0 {
		c.r = 0
	}
	// recordWrite: the last write's bytes are all in mask, so the new
	// one replaces it (or, at the same epoch, grows it to mask).
	c.w, c.wmask, c.wsite = e, mask, site
	c.setFlag(cellWAtomic, atomic)
	return found
}

// readStep records t's sampled read of the bytes mask at epoch e in a
// cell without an extension, and reports whether an earlier write races
// with it, storing it in *cf, as checkRead does.
func (c *cell) readStep(t *thread, e epoch, mask uint8, site uint64, atomic bool, cf *conflict) bool {
	found := false
	if c.writeMayRace(mask, atomic) && !t.ordered(c.w) {
		*cf = c.conflictWith(c.w, c.wsite, true)
		found = true
	}
	if !c.recordExclusiveRead(t, e, mask, site, atomic) {
		c.shareReads(e, mask, site, atomic)
	}
	return found
}
