package runtime

// A syncClock is the vector clock carried by a synchronization object: the
// shared vclock vc joined with the single epoch e. Keeping the releaser's
// own entry in e, outside vc, is what lets a release share the releaser's
// vclock instead of copying it: the releaser's own clock lives in its
// thread, so its vclock does not change when it ticks.
type syncClock struct {
	vc *vclock
	e  epoch
	// merged is the last frozen vclock merged into vc, known to be
	// covered by it: vc only grows until the next store, and a frozen
	// vclock never changes. Merging it again can skip the comparison,
	// which costs a pass over every slot.
	merged *vclock

	// The version epoch (version.go): the value of s is covered by
	// version vver of slot vtid's clock (vver 0: no such version is
	// known), and equal to it if vexact.
	vtid   uint32
	vexact bool
	vver   uint64
}

// get returns the entry of slot t.
func (s *syncClock) get(t uint32) uint64 {
	c := s.vc.get(t)
	if s.e != 0 && s.e.tid() == t && s.e.clock() > c {
		c = s.e.clock()
	}
	return c
}

// store sets s to t's current clock (Cm ← Ct), sharing t's vclock.
func (s *syncClock) store(t *thread) {
	s.vc = t.share()
	s.e = t.epoch()
	s.merged = s.vc
	s.vtid, s.vver = t.vepoch()
	s.vexact = true
}

// merge joins t's current clock into s (Cm ← Cm ⊔ Ct). Channels,
// WaitGroups and atomics, which many goroutines release into, use it.
func (s *syncClock) merge(t *thread) {
	if s.vc == nil && s.e == 0 || t.knows(s.vtid, s.vver) {
		// Cm ⊑ Ct, so Cm ⊔ Ct = Ct: a shallow copy of t's clock
		// (Pacer's Algorithm 16), exact again for later acquirers.
		s.store(t)
		return
	}
	s.vtid, s.vver, s.vexact = 0, 0, false
	tv := t.share()
	if s.vc != tv && s.merged != tv && !tv.leq(s.vc) {
		if s.vc == nil || s.vc.frozen.Load() {
			s.vc = s.vc.clone(len(tv.c))
		}
		s.vc.join(tv)
	}
	s.merged = tv
	if s.e != 0 && s.e.tid() != t.tid && s.vc.get(s.e.tid()) < s.e.clock() {
		if s.vc == nil || s.vc.frozen.Load() {
			s.vc = s.vc.clone(int(s.e.tid()) + 1)
		}
		s.vc.set(s.e.tid(), s.e.clock())
	}
	s.e = t.epoch()
}

// mergeClock joins another synchronization clock into s.
func (s *syncClock) mergeClock(o *syncClock) {
	if o.vc == nil && o.e == 0 {
		return
	}
	if s.vc == nil && s.e == 0 {
		*s = *o
		return
	}
	s.vtid, s.vver, s.vexact = 0, 0, false
	if o.vc != nil && o.vc != s.vc && !o.vc.leq(s.vc) {
		if s.vc == nil || s.vc.frozen.Load() {
			s.vc = s.vc.clone(len(o.vc.c))
		}
		s.vc.join(o.vc)
	}
	if o.e != 0 && s.get(o.e.tid()) < o.e.clock() {
		if s.e == 0 || s.e.tid() == o.e.tid() {
			s.e = o.e
			return
		}
		if s.vc == nil || s.vc.frozen.Load() {
			s.vc = s.vc.clone(int(o.e.tid()) + 1)
		}
		s.vc.set(o.e.tid(), o.e.clock())
	}
}
