package runtime

// clockState describes, for the debug_clocks option, why the detector
// took the earlier access cf for one that the current goroutine t is not
// ordered after: the earlier access's slot and clock, what t knows of
// that slot, who holds the slot now, whether it was ever shared, and the
// history's GC generation against the exact count. The defects behind
// the false reports of fasthttp's suites were found with this text: a
// child that knew less of its creator's slot than the creator's access
// (a go statement forked from the wrong thread), and an access on a
// shared slot.
func clockState(t *thread, cf conflict) string {
	pt := cf.prev.tid()
	var b []byte
	field := func(name string, v uint64) {
		b = appendUint(append(append(b, ' '), name...), v)
	}
	flag := func(name string, v bool) {
		n := uint64(0)
		if v {
			n = 1
		}
		field(name, n)
	}
	field("prev.slot=", uint64(pt))
	field("prev.clock=", cf.prev.clock())
	flag("prev.shared=", wasShared(pt))
	field("cur.slot=", uint64(t.tid))
	field("cur.clock=", t.epoch().clock())
	field("cur.knows=", t.clockOf(pt))
	flag("cur.sharer=", t.sharer)
	field("cur.start=", t.start)
	field("cur.parent=", uint64(t.parent))
	flag("cur.lazy=", t.created == nil)
	if h := slotThread(pt); h != nil {
		field("holder.goid=", uint64(h.goid))
		field("holder.start=", h.start)
		field("holder.clock=", h.epoch().clock())
		flag("holder.finished=", h.finished.Load())
	}
	field("gen=", uint64(cf.gen))
	field("exact=", uint64(exactGen()))
	flag("known=", cf.global)
	flag("sampling=", sampling.Load() != 0)
	return string(b[1:])
}
