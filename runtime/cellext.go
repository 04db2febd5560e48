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
const extShardBits = 6

var extShards [1 << extShardBits]struct {
	mu    spinLock
	slots []*cellExt
	free  []uint32
	_     [8]byte // one shard to a cache line
}

// newExt makes an extension for c, which has none, and keeps it alive.
func newExt(c *cell) *cellExt {
	h := uint64(uintptr(unsafe.Pointer(c))/unsafe.Sizeof(cell{})) * 0x9e3779b97f4a7c15
	x := &cellExt{shard: uint8(h >> (64 - extShardBits))}
	s := &extShards[x.shard]
	s.mu.Lock()
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

// dropExt lets x, which no cell points to any more, be collected.
func dropExt(x *cellExt) {
	s := &extShards[x.shard]
	s.mu.Lock()
	s.slots[x.slot] = nil
	s.free = append(s.free, x.slot)
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
