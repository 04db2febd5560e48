package runtime

// Versions are Pacer's device (section 3.2, Algorithms 9-11 and 16) for
// making synchronization O(1) outside sampling periods, where clocks
// stand still and the same clocks are joined over and over: without them
// every acquire compares two vector clocks, a pass over every slot.
//
// A thread's version numbers the values its clock (vc and own epoch)
// takes: t.changed() is called after every change of either, so one
// version of a slot's owner is one clock value. A synchronization clock
// carries a version epoch (vtid, vver): its value is covered by version
// vver of slot vtid's clock, and equal to it when vexact is set (a
// release stored that clock). A thread's version vector vv records, for
// each slot u, a version of u's clock that its own clock covers; an
// acquire of a clock whose version epoch the thread knows needs no join,
// and a merge into a clock that the releaser's clock covers becomes a
// shallow store of the releaser's clock (Algorithm 16), after which its
// version epoch is exact again.
//
// Soundness rests on one fact: a thread's clock only grows, so an older
// version of it is covered by every newer one. Slots are reused by new
// goroutines, whose clocks do not cover their predecessors', so a
// version carries the slot's owner generation in its high bits and two
// versions are compared only within one generation. Threads that share
// a slot with its holder (slots.go) have no versions (ver 0), and a
// version that would overflow its count or generation disables versions
// for that owner. A version epoch that is zero, or that a thread does not
// know, only costs the full comparison, so every shortcut here skips a
// join only when the join could not change the clock.

const (
	verCountBits = 40
	verCountMask = 1<<verCountBits - 1
	// maxVerGen bounds owner generations so that gen<<verCountBits
	// fits in 64 bits; a slot reused that often gets no more versions.
	maxVerGen = 1<<(64-verCountBits) - 1
)

func sameVerGen(a, b uint64) bool { return a>>verCountBits == b>>verCountBits }

// changed records that t's clock took a new value.
func (t *thread) changed() {
	if t.ver == 0 {
		return
	}
	if t.ver&verCountMask == verCountMask {
		t.ver = 0 // out of versions: never claim one again
		return
	}
	t.ver++
}

// vepoch returns t's version epoch: the version of t's clock as it is
// now, or zero if t has no versions.
func (t *thread) vepoch() (uint32, uint64) {
	if t.ver == 0 {
		return 0, 0
	}
	return t.tid, t.ver
}

// knows reports whether t's clock covers version v of slot u's clock.
func (t *thread) knows(u uint32, v uint64) bool {
	if v == 0 {
		return false
	}
	if u == t.tid {
		// An older version of t's own clock (of the same owner).
		return t.ver != 0 && sameVerGen(v, t.ver) && v <= t.ver
	}
	if int(u) < len(t.vv) {
		w := t.vv[u]
		return sameVerGen(w, v) && w >= v
	}
	return false
}

// learn records that t's clock covers version v of slot u's clock.
func (t *thread) learn(u uint32, v uint64) {
	if v == 0 || u == t.tid {
		return
	}
	if int(u) >= len(t.vv) {
		if int(u) >= cap(t.vv) {
			vv := make([]uint64, int(u)+1, max(2*cap(t.vv), int(u)+1, 8))
			copy(vv, t.vv)
			t.vv = vv
		} else {
			t.vv = t.vv[:u+1]
		}
	}
	if t.vv[u] < v {
		// Any version t covers is a valid entry; keep the newest
		// (a later owner's versions are numerically larger), which
		// later releases are likeliest to carry.
		t.vv[u] = v
	}
}
