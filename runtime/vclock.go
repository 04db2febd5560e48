package runtime

import "sync/atomic"

// A vclock is a vector clock indexed by goroutine slot (tid). Missing
// entries are zero.
//
// Vector clocks are shared shallowly, as in Pacer's Algorithm 9: a release
// hands the releasing goroutine's vclock to the synchronization object
// instead of copying it, and a fork hands it to the child. Once a vclock
// has been shared it is frozen, and anyone who needs to change it clones
// it first (Algorithms 10 and 11). A frozen vclock is never written again,
// so it can be read without locks. The exception is a mutex released in
// a sampling period by a goroutine whose vclock is private: it is copied
// into the mutex's own (syncClock.copies).
type vclock struct {
	c      []uint64
	frozen atomic.Bool
}

// get returns the entry for slot t.
func (v *vclock) get(t uint32) uint64 {
	if v == nil || int(t) >= len(v.c) {
		return 0
	}
	return v.c[t]
}

// clone returns a private copy of v with room for at least n entries.
func (v *vclock) clone(n int) *vclock {
	if v != nil && len(v.c) > n {
		n = len(v.c)
	}
	w := &vclock{c: make([]uint64, n)}
	if v != nil {
		copy(w.c, v.c)
	}
	return w
}

// copyFrom makes v equal to w, in place; v must be private.
func (v *vclock) copyFrom(w *vclock) {
	n := 0
	if w != nil {
		n = len(w.c)
	}
	if len(v.c) > n {
		// Entries past len are zero (grow relies on it).
		clear(v.c[n:])
	} else {
		v.grow(n)
	}
	if w != nil {
		copy(v.c, w.c)
	}
}

// set stores c at slot t; v must be private.
func (v *vclock) set(t uint32, c uint64) {
	if int(t) >= len(v.c) {
		v.grow(int(t) + 1)
	}
	v.c[t] = c
}

// raise makes v cover epoch e: its entry for e's slot at least e's
// clock; v must be private.
func (v *vclock) raise(e epoch) {
	if v.get(e.tid()) < e.clock() {
		v.set(e.tid(), e.clock())
	}
}

func (v *vclock) grow(n int) {
	if n <= cap(v.c) {
		v.c = v.c[:n]
		return
	}
	c := make([]uint64, n, n+n/2)
	copy(c, v.c)
	v.c = c
}

// leq reports whether every entry of v is at most the matching entry of w.
//
// It and join are a pass over every slot, at every acquire that versions
// do not answer; their loops index slices of equal length, which the
// compiler then checks once, not at each entry. (leq asked w.get for each
// entry, a nil test and a bounds test each: vclock.leq, with the get it
// inlined, was 12% of shardmap's CPU profile at rate 1, whose eight
// goroutines take turns at 32 mutexes with clocks of over a thousand
// slots.)
func (v *vclock) leq(w *vclock) bool {
	if v == nil || v == w {
		return true
	}
	vc := v.c
	var wc []uint64
	if w != nil {
		wc = w.c
	}
	if len(vc) > len(wc) {
		// w's missing entries are zero.
		for _, c := range vc[len(wc):] {
			if c != 0 {
				return false
			}
		}
		vc = vc[:len(wc)]
	}
	wc = wc[:len(vc)]
	for i, c := range vc {
		if c > wc[i] {
			return false
		}
	}
	return true
}

// join sets v to the entrywise maximum of v and w; v must be private.
// It reports whether v changed.
func (v *vclock) join(w *vclock) bool {
	if w == nil || v == w {
		return false
	}
	if len(w.c) > len(v.c) {
		v.grow(len(w.c))
	}
	wc := w.c
	vc := v.c[:len(wc)]
	changed := false
	for i, c := range wc {
		if c > vc[i] {
			vc[i] = c
			changed = true
		}
	}
	return changed
}
