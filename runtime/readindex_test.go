package runtime

import (
	"math/rand/v2"
	"testing"
)

// TestReadIndex runs random reads, discarded reads and writes' clearReads
// on cells whose read sets grow past readIndexMin and shrink again, and
// checks after each step that the index finds every slot's first entry
// and no other, that it flags slots with two entries, and that
// readSetHas and recordRead's lookup (readerOf) answer as a scan of the
// read set does.
func TestReadIndex(t *testing.T) {
	const (
		slots = 3 * readIndexMin
		steps = 4000
	)
	rng := rand.New(rand.NewPCG(1, 2))
	threads := make([]*thread, slots+1)
	for tid := range threads {
		threads[tid] = &thread{tid: uint32(tid), vc: &vclock{}}
		threads[tid].ep.Store(uint64(mkEpoch(uint32(tid), 1)))
	}
	masks := []uint8{0x0f, 0xf0, 0xff, 0x01, 0x3c}
	indexed, dups := false, false
	for run := 0; run < 20; run++ {
		var c cell
		// A slot with two entries comes from shareReads: a goroutine's
		// read of other bytes after its own earlier one.
		if run%2 == 0 {
			th := threads[1]
			c.recordRead(th, th.epoch(), 0x0f, 1, false)
			th.ep.Add(1 << tidBits)
			c.recordRead(th, th.epoch(), 0xf0, 1, false)
		}
		for step := 0; step < steps; step++ {
			th := threads[1+rng.IntN(slots)]
			mask := masks[rng.IntN(len(masks))]
			switch k := rng.IntN(100); {
			case k < 70:
				if rng.IntN(4) == 0 {
					th.ep.Add(1 << tidBits)
				}
				e := th.epoch()
				if !c.readSetHas(e, mask, false) {
					c.recordRead(th, e, mask, uint64(step), false)
				}
			case k < 95:
				c.discardRead(th, mask)
			default:
				c.clearReads(mask)
			}
			checkReadIndex(t, &c, threads)
			if t.Failed() {
				t.Fatalf("run %d, step %d", run, step)
			}
			if c.x != nil && c.x.idx != nil {
				indexed = true
				dups = dups || c.x.idx.dups
			}
		}
	}
	if !indexed || !dups {
		t.Fatalf("no read set was indexed (%v) or indexed with a slot's two entries (%v)", indexed, dups)
	}
}

// checkReadIndex checks c's read set index against a scan.
func checkReadIndex(t *testing.T, c *cell, threads []*thread) {
	t.Helper()
	rs := c.readSet()
	if c.x == nil {
		return
	}
	x := c.x
	if (len(rs) >= readIndexMin) != (x.idx != nil) {
		t.Errorf("read set of %d entries, index made = %v", len(rs), x.idx != nil)
		return
	}
	first := map[uint32]int{}
	dup := false
	for i, r := range rs {
		if _, ok := first[r.e.tid()]; ok {
			dup = true
			continue
		}
		first[r.e.tid()] = i
	}
	if x.idx != nil {
		if x.idx.dups != dup {
			t.Errorf("index dups = %v, want %v", x.idx.dups, dup)
		}
		if x.idx.slots != len(first) {
			t.Errorf("index holds %d slots, want %d", x.idx.slots, len(first))
		}
	}
	for _, th := range threads {
		want, ok := first[th.tid]
		if !ok {
			want = -1
		}
		if got := x.readerOf(rs, th.tid); got != want {
			t.Errorf("readerOf(slot %d) = %d, want %d", th.tid, got, want)
		}
		for _, r := range rs {
			if r.e.tid() != th.tid {
				continue
			}
			for _, mask := range []uint8{0x01, 0x0f, 0xf0, 0xff} {
				if got, want := c.readSetHas(r.e, mask, false), scanReadSetHas(rs, r.e, mask, false); got != want {
					t.Errorf("readSetHas(%v, %#x) = %v, a scan says %v", r.e, mask, got, want)
				}
			}
		}
	}
}

// scanReadSetHas is readSetHas as a scan of the read set rs.
func scanReadSetHas(rs []entry, e epoch, mask uint8, atomic bool) bool {
	for _, r := range rs {
		if r.e == e {
			return r.mask&mask == mask && (atomic || !r.atomic)
		}
	}
	return false
}

// BenchmarkReadSetMany is a read of a granule that slots goroutines read
// concurrently since its last write, each at a new epoch.
func BenchmarkReadSetMany(b *testing.B) {
	const slots = 1024
	var c cell
	threads := make([]*thread, slots)
	for i := range threads {
		th := &thread{tid: uint32(i + 1), vc: &vclock{}}
		th.ep.Store(uint64(mkEpoch(th.tid, 1)))
		threads[i] = th
		c.recordRead(th, th.epoch(), 0xff, 1, false)
	}
	i := 0
	for b.Loop() {
		th := threads[i%slots]
		th.ep.Add(1 << tidBits)
		if e := th.epoch(); !c.readSetHas(e, 0xff, false) {
			c.recordRead(th, e, 0xff, 2, false)
		}
		i++
	}
}
