package runtime

import "unsafe"

// Cells live outside the Go heap (shadow.go), where the garbage collector
// would not see a pointer, so the extensions of the few cells that have
// one (cell.ext) are kept here, in a table keyed by the cell's address.
// A cell's entry is read and written only under the cell's line lock;
// the shard locks below order the table's own updates, and are taken
// last, so they are never held while waiting for a line lock.
const extShardBits = 6

var extShards [1 << extShardBits]struct {
	mu spinLock
	m  map[uintptr]*cellExt
	_  [48]byte // one shard to a cache line
}

// extKey returns c's key and shard.
func extKey(c *cell) (uintptr, int) {
	k := uintptr(unsafe.Pointer(c))
	h := uint64(k/unsafe.Sizeof(cell{})) * 0x9e3779b97f4a7c15
	return k, int(h >> (64 - extShardBits))
}

// extOf returns c's extension. c has one (cellExtended); should the table
// have lost it, an empty extension stands in, which forgets history
// rather than invents it.
func extOf(c *cell) *cellExt {
	k, i := extKey(c)
	s := &extShards[i]
	s.mu.Lock()
	x := s.m[k]
	s.mu.Unlock()
	if x == nil {
		return new(cellExt)
	}
	return x
}

// newExt makes c's extension, replacing whatever the table held for its
// address: an entry left by an earlier history there must not be
// inherited.
func newExt(c *cell) *cellExt {
	k, i := extKey(c)
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

// dropExt deletes c's extension.
func dropExt(c *cell) {
	k, i := extKey(c)
	s := &extShards[i]
	s.mu.Lock()
	delete(s.m, k)
	s.mu.Unlock()
}

// extCount returns the number of extensions, for tests.
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
