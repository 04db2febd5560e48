package runtime

import "unsafe"

// Cells live outside the Go heap (shadow.go), which the garbage collector
// does not scan: the extension a cell points to (cell.x) would be freed
// under it. This table holds every extension for as long as its cell
// does, keyed by the cell's address. Accesses follow cell.x and never
// look here; the table changes only when an extension is made or dropped,
// under the cell's line lock, and its shard locks are taken last, so they
// are never held while waiting for a line lock.
//
// (The extensions were found through this table until the in-place cells
// had a pointer of their own: matmul at rate 1, whose matrices are read by
// every goroutine and so have read sets, spent a third of its time in the
// table's lookups and its contended locks.)
const extShardBits = 6

var extShards [1 << extShardBits]struct {
	mu spinLock
	m  map[uintptr]*cellExt
	_  [48]byte // one shard to a cache line
}

// extShard returns c's key and shard.
func extShard(c *cell) (uintptr, int) {
	k := uintptr(unsafe.Pointer(c))
	h := uint64(k/unsafe.Sizeof(cell{})) * 0x9e3779b97f4a7c15
	return k, int(h >> (64 - extShardBits))
}

// newExt makes an extension for c, which has none, and keeps it alive,
// replacing whatever the table held for c's address.
func newExt(c *cell) *cellExt {
	k, i := extShard(c)
	x := new(cellExt)
	s := &extShards[i]
	s.mu.Lock()
	if s.m == nil {
		s.m = make(map[uintptr]*cellExt)
	}
	s.m[k] = x
	s.mu.Unlock()
	return x
}

// dropExt lets c's extension, which c no longer points to, be collected.
func dropExt(c *cell) {
	k, i := extShard(c)
	s := &extShards[i]
	s.mu.Lock()
	delete(s.m, k)
	s.mu.Unlock()
}

// extCount returns the number of extensions kept, for tests.
func extCount() int {
	n := 0
	for i := range extShards {
		s := &extShards[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}
