package runtime

import (
	"testing"
	"unsafe"
)

// TestCellSize guards the cell's size: a page of memory that instrumented
// code touched has a cell for each of its granules, and 48 bytes is what
// keeps the shadow at six times the memory it describes. A page's cells
// fill whole system pages, which the kernel backs one at a time.
func TestCellSize(t *testing.T) {
	if got := unsafe.Sizeof(cell{}); got != 48 {
		t.Errorf("unsafe.Sizeof(cell{}) = %d, want 48", got)
	}
	if got := unsafe.Sizeof([pageLen]cell{}); got%4096 != 0 {
		t.Errorf("a page's cells take %d bytes, not a multiple of 4096", got)
	}
}

// TestCellExtension: the extension is made when the history first has a
// read set or writes of other bytes, is kept when they go
// (cell.trim), and is dropped with the history.
func TestCellExtension(t *testing.T) {
	thr := func(tid uint32) *thread {
		t := &thread{tid: tid, vc: &vclock{}}
		t.ep.Store(uint64(mkEpoch(tid, 5)))
		return t
	}
	t1, t2 := thr(1), thr(2)
	const all = 0xff
	tests := []struct {
		name    string
		do      func(c *cell)
		wantExt bool
	}{
		{"one read", func(c *cell) {
			c.recordRead(t1, t1.epoch(), all, 1, false)
		}, false},
		{"concurrent reads", func(c *cell) {
			c.recordRead(t1, t1.epoch(), all, 1, false)
			c.recordRead(t2, t2.epoch(), all, 2, false)
		}, true},
		{"concurrent reads, then a write", func(c *cell) {
			c.recordRead(t1, t1.epoch(), all, 1, false)
			c.recordRead(t2, t2.epoch(), all, 2, false)
			c.clearReads(all)
			c.recordWrite(t1.epoch(), all, 3, false)
		}, true},
		{"writes of different bytes", func(c *cell) {
			c.recordWrite(t1.epoch(), 0x0f, 1, false)
			c.recordWrite(t2.epoch(), 0xf0, 2, false)
		}, true},
		{"then a write of all bytes", func(c *cell) {
			c.recordWrite(t1.epoch(), 0x0f, 1, false)
			c.recordWrite(t2.epoch(), 0xf0, 2, false)
			c.recordWrite(t1.epoch(), all, 3, false)
		}, true},
		{"read set discarded", func(c *cell) {
			c.recordRead(t1, t1.epoch(), all, 1, false)
			c.recordRead(t2, t2.epoch(), all, 2, false)
			c.discardRead(t1, all)
			c.discardRead(t2, all)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c cell
			n := extCount()
			tt.do(&c)
			if got := c.x != nil; got != tt.wantExt {
				t.Errorf("extension present = %v, want %v (cell %+v)", got, tt.wantExt, c)
			}
			if got, want := extCount()-n, map[bool]int{false: 0, true: 1}[tt.wantExt]; got != want {
				t.Errorf("the side table grew by %d extensions, want %d", got, want)
			}
			c.reset(0)
			if c.x != nil || extCount() != n {
				t.Errorf("after reset: extension %p, side table grew by %d; want none", c.x, extCount()-n)
			}
		})
	}
}

// TestCellExtensionReused: a history that keeps gaining and losing its
// rare parts (writes of other bytes, a read set) allocates nothing once
// warm, since extensions and their arrays are reused; a program's
// testing.AllocsPerRun would count the detector's allocations as its own.
func TestCellExtensionReused(t *testing.T) {
	thr := func(tid uint32) *thread {
		t := &thread{tid: tid, vc: &vclock{}}
		t.ep.Store(uint64(mkEpoch(tid, 5)))
		return t
	}
	t1, t2 := thr(1), thr(2)
	const all = 0xff
	var c cell
	allocs := testing.AllocsPerRun(100, func() {
		c.recordWrite(t1.epoch(), 0x0f, 1, false)
		c.recordWrite(t2.epoch(), 0xf0, 2, false) // writes of other bytes
		c.recordRead(t1, t1.epoch(), all, 3, false)
		c.recordRead(t2, t2.epoch(), all, 4, false) // a read set
		c.clearReads(all)
		c.recordWrite(t1.epoch(), all, 5, false) // both parts gone
		c.reset(0)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per history, want 0", allocs)
	}
}

// TestCellExtensionKept: every extension a cell points to is kept alive
// in its slot while others are made and dropped around it, reused ones
// among them; the collector does not scan the cells, so an extension that
// lost its slot would be freed under its cell.
func TestCellExtensionKept(t *testing.T) {
	cells := make([]cell, 4096)
	for round := range 3 {
		for i := range cells {
			if (i+round)%3 != 0 && cells[i].x == nil {
				// Writes of two halves: one moves aside, into an
				// extension.
				cells[i].recordWrite(mkEpoch(1, 5), 0x0f, 1, false)
				cells[i].recordWrite(mkEpoch(2, 5), 0xf0, 2, false)
			}
		}
		for i := range cells {
			if (i+round)%2 == 0 {
				cells[i].reset(0) // drops the extension
			}
		}
		for i := range cells {
			x := cells[i].x
			if x == nil {
				continue
			}
			s := &extShards[x.shard]
			s.mu.Lock()
			kept := int(x.slot) < len(s.slots) && s.slots[x.slot] == x
			s.mu.Unlock()
			if !kept {
				t.Fatalf("round %d: the extension of cell %d is not in its slot", round, i)
			}
		}
	}
	for i := range cells {
		cells[i].reset(0)
	}
}

// TestCellHolds: the lock-free test finds an access redundant exactly
// where accessGranule's same-epoch rules do, on history of the current
// GC cycle; a read after the goroutine's own write in its epoch only in a
// sampling period.
func TestCellHolds(t *testing.T) {
	e, other := mkEpoch(1, 5), mkEpoch(2, 5)
	const gen = 3
	write := func(e epoch, mask uint8, atomic bool) cell {
		c := cell{gen: gen}
		c.recordWrite(e, mask, 1, atomic)
		return c
	}
	read := func(e epoch, mask uint8, atomic bool) cell {
		c := cell{gen: gen}
		c.r, c.rmask = e, mask
		c.setFlag(cellRAtomic, atomic)
		return c
	}
	tests := []struct {
		name   string
		c      cell
		mask   uint8
		o      op
		gen    uint32
		sample bool
		want   bool
	}{
		{"write again", write(e, 0xff, false), 0xff, opWrite, gen, true, true},
		{"write again, not sampling", write(e, 0xff, false), 0xff, opWrite, gen, false, true},
		{"write of fewer bytes", write(e, 0xff, false), 0x0f, opWrite, gen, true, true},
		{"write of other bytes", write(e, 0x0f, false), 0xf0, opWrite, gen, true, false},
		{"write in another epoch", write(other, 0xff, false), 0xff, opWrite, gen, true, false},
		{"plain write after an atomic one", write(e, 0xff, true), 0xff, opWrite, gen, true, false},
		{"atomic write after a plain one", write(e, 0xff, false), 0xff, opWrite | opAtomic, gen, true, true},
		{"write after a read", read(e, 0xff, false), 0xff, opWrite, gen, true, false},
		{"read again", read(e, 0xff, false), 0xff, opRead, gen, true, true},
		{"read after a write", write(e, 0xff, false), 0xff, opRead, gen, true, true},
		{"read after a write, not sampling", write(e, 0xff, false), 0xff, opRead, gen, false, false},
		{"read after a write of fewer bytes", write(e, 0x0f, false), 0xff, opRead, gen, true, false},
		{"read after another epoch's write", write(other, 0xff, false), 0xff, opRead, gen, true, false},
		{"plain read after an atomic write", write(e, 0xff, true), 0xff, opRead, gen, true, false},
		{"atomic read after a plain write", write(e, 0xff, false), 0xff, opRead | opAtomic, gen, true, true},
		{"plain read after an atomic one", read(e, 0xff, true), 0xff, opRead, gen, true, false},
		{"read of other bytes", read(e, 0x01, false), 0x02, opRead, gen, true, false},
		{"after a GC cycle", write(e, 0xff, false), 0xff, opWrite, gen + 1, true, false},
		{"read after a write, after a GC cycle", write(e, 0xff, false), 0xff, opRead, gen + 1, true, false},
		{"no history", cell{}, 0xff, opRead, gen, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.holds(e, tt.mask, tt.o, tt.gen, tt.sample); got != tt.want {
				t.Errorf("holds = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCellExtensionLargeReadSet: an extension kept after its read set
// emptied does not keep the array of a read set of many goroutines, as a
// dropped one does not (dropExt); a small one it keeps for the next.
func TestCellExtensionLargeReadSet(t *testing.T) {
	for _, readers := range []uint32{2, maxSpareEntries + 1} {
		var c cell
		for tid := uint32(1); tid <= readers; tid++ {
			th := &thread{tid: tid, vc: &vclock{}}
			th.ep.Store(uint64(mkEpoch(tid, 5)))
			c.recordRead(th, th.epoch(), 0xff, uint64(tid), false)
		}
		c.clearReads(0xff)
		if c.x == nil {
			t.Fatalf("%d readers: no extension after the read set emptied", readers)
		}
		kept := cap(c.x.spareRS) > 0
		if want := readers <= maxSpareEntries; kept != want {
			t.Errorf("%d readers: the read set's array kept = %v (cap %d), want %v", readers, kept, cap(c.x.spareRS), want)
		}
		c.reset(0)
	}
}
