package runtime

import "unsafe"

// A channel's sends and closes are accesses of the channel object, as
// under go build -race: a send reads it and a close writes it, so that a
// close racing with a send, or with another close, is reported. Their
// history is a cell kept in the channel's syncVar (syncVar.hist), under
// the syncVar's lock, rather than in the shadow:
//
//   - its lifetime is the channel's, which the syncVar knows exactly from
//     its weak pointer, where shadow history of heap memory ends at each
//     GC cycle (heap.go): at rate 1 a close racing with a send is
//     reported whatever collections ran between the two, and the history
//     goes with the syncVar when the channel dies (retire), so that a
//     channel allocated later at the same address starts with none;
//   - every operation looks the syncVar up anyway, so the history costs
//     no page lookup and no line lock, and its cell needs no extension to
//     say which object it belongs to.
//
// The cell is marked cellGlobal, the mark of history known to describe
// the object at its address: a report needs no GC count check, and the
// history expires only below rate 1, at the first access or sweep after
// a GC cycle, as the history of globals does (boundedHistory). While it
// holds anything it keeps the gate open (histOn), as a shadow page with
// cells does: outside sampling periods a send or a close must still be
// checked against it.

// chanRelease is the first half of a send (o is opRead) or a close
// (opWrite) by t on the channel at p, whose syncVar is sv, from site: it
// records the operation in the channel's history and reports a race with
// an earlier one that is not ordered before it, then releases t's clock
// into the channel's (releaseMerge), under one hold of sv's lock where
// the two took it twice. Pacer's rules apply to the history as to any
// access (cell.apply): outside sampling periods the operation is only
// checked, and discards what it supersedes.
func (sv *syncVar) chanRelease(t *thread, p unsafe.Pointer, site uint64, o op) {
	if staticSync {
		return // syncer made the operation's onSync, and there is no history
	}
	if sv == nil || t == nil {
		return
	}
	sample := t.sampling()
	if sample && t.creatorPending {
		t.creator() // the operation may be recorded, and reported as the earlier one
	}
	// The history has something to check or is to record the
	// operation; t's clock has something the channel's lacks.
	access := sample || sv.histOn.Load()
	merge := !sv.rel.covers(t)
	var cf conflict
	found := false
	if access || merge {
		sv.mu.Lock()
		if access {
			found = sv.histAccess(t, site, o, sample, &cf)
		}
		if merge {
			sv.rel.merge(t, false)
		}
		sv.mu.Unlock()
	}
	t.tick()
	if found {
		reportRace(t, uintptr(p), 1, site, o&opWrite != 0, cf)
	}
}

// histAccess runs the rule on sv's history for t's operation o from
// site, sampled or not, and reports whether it races with an earlier
// one, which it then stores in *cf. sv.mu is held.
func (sv *syncVar) histAccess(t *thread, site uint64, o op, sample bool, cf *conflict) bool {
	c := &sv.hist
	if gen := gcGen.Load(); c.empty() || c.expired(gen) {
		c.reset(gen)
		c.flags = cellGlobal
	}
	if sample {
		// Before the history is recorded, as a page counts in the gate
		// before its first cell is inserted (gate.go).
		sv.setHistOn(true)
	}
	found := c.apply(t, 1, site, o, sample, cf)
	if c.empty() {
		sv.setHistOn(false)
	}
	return found
}

// setHistOn records whether sv's history holds anything, opening or
// closing the gate for it when that changes. sv.mu is held.
func (sv *syncVar) setHistOn(on bool) {
	if on == sv.histOn.Load() {
		return
	}
	sv.histOn.Store(on)
	if on {
		gateInc()
	} else {
		gateDec()
	}
}

// forgetHistory drops sv's history if it has any and drop reports true
// for it.
func (sv *syncVar) forgetHistory(drop func(*cell) bool) {
	if !sv.histOn.Load() {
		return
	}
	sv.mu.Lock()
	if sv.histOn.Load() && drop(&sv.hist) {
		sv.hist.reset(0)
		sv.setHistOn(false)
	}
	sv.mu.Unlock()
}

// retire drops the history of sv, whose object has died, as the sync
// table forgets it.
func (sv *syncVar) retire() {
	sv.forgetHistory(func(*cell) bool { return true })
}
