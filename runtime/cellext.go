package runtime

import "unsafe"

// Cells live outside the Go heap (shadow.go), which the garbage collector
// does not scan: the extension a cell points to (cell.x) would be freed
// under it. The shards below hold every extension for as long as a cell
// points to it, each in a slot of a slice that the collector does scan,
// with a free list of slots: making or dropping an extension is a push or
// a pop, under the shard's lock. Accesses follow cell.x and never look
// here. Extensions are made and dropped under the cell's line lock, and
// the shard locks are taken last, so they are never held while waiting
// for a line lock.
//
// (The extensions were found through a map keyed by the cell's address
// until the in-place cells had a pointer of their own: matmul at rate 1,
// whose matrices are read by every goroutine and so have read sets, spent
// a third of its time in that map's lookups and contended locks. Keeping
// them alive in a map cost fastcache, whose appends write parts of
// granules and so make and drop extensions all the time, 10% in map
// inserts and deletes.)
//
// A dropped extension is kept, with the arrays of its lists, for the next
// one the shard makes, up to spareExts of them: the granules of a buffer
// written a few bytes at a time (fasthttp's headers, fastcache's appends)
// make and drop extensions all the time, and each was an allocation that
// the program's testing.AllocsPerRun counted as its own.
const (
	extShardBits    = 6
	spareExts       = 256
	maxSpareEntries = 16
)

var extShards [1 << extShardBits]struct {
	mu    spinLock
	slots []*cellExt
	free  []uint32
	spare []*cellExt
	_     [8]byte // one shard to a cache line
}

// newExt makes an extension for c, which has none, and keeps it alive.
func newExt(c *cell) *cellExt {
	h := uint64(uintptr(unsafe.Pointer(c))/unsafe.Sizeof(cell{})) * 0x9e3779b97f4a7c15
	shard := uint8(h >> (64 - extShardBits))
	s := &extShards[shard]
	s.mu.Lock()
	var x *cellExt
	if n := len(s.spare); n > 0 {
		x = s.spare[n-1]
		s.spare[n-1] = nil
		s.spare = s.spare[:n-1]
	} else {
		x = &cellExt{shard: shard}
	}
	if n := len(s.free); n > 0 {
		x.slot = s.free[n-1]
		s.free = s.free[:n-1]
		s.slots[x.slot] = x
	} else {
		x.slot = uint32(len(s.slots))
		s.slots = append(s.slots, x)
	}
	s.mu.Unlock()
	return x
}

// dropExt lets x, which no cell points to any more, be collected, or
// keeps it for newExt.
func dropExt(x *cellExt) {
	rs, wx := x.spareRS, x.spareWX
	if cap(rs) > maxSpareEntries {
		rs = nil // a read set of many goroutines: let it go
	}
	slot := x.slot
	*x = cellExt{spareRS: rs, spareWX: wx, shard: x.shard}
	s := &extShards[x.shard]
	s.mu.Lock()
	s.slots[slot] = nil
	s.free = append(s.free, slot)
	if len(s.spare) < spareExts {
		s.spare = append(s.spare, x)
	}
	s.mu.Unlock()
}

// extCount returns the number of extensions kept, for tests.
func extCount() int {
	n := 0
	for i := range extShards {
		s := &extShards[i]
		s.mu.Lock()
		n += len(s.slots) - len(s.free)
		s.mu.Unlock()
	}
	return n
}
