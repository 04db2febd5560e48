package runtime

import (
	"sync"
	"unsafe"
)

// The shadow is the access history of memory: one cell per 8-byte granule
// that instrumented code has accessed, in a hash table split into shards
// that each have their own lock. A cell holds FastTrack's write epoch and
// read epoch or read set. Each epoch comes with a byte mask of the
// granule's bytes it covers, so that neighbouring byte-sized fields
// accessed by different goroutines do not look like one location.
type cell struct {
	gen    uint32 // GC cycle count (lower bound) when this history began
	global bool   // the granule belongs to a global variable
	wmask  uint8  // bytes covered by w
	rmask  uint8  // bytes covered by r
	// watomic and ratomic report that w and r were atomic operations,
	// which never race with each other.
	watomic, ratomic bool
	w                epoch // last write, 0 if none
	wsite            uint64
	r                epoch // last read when there is at most one, 0 if none
	rsite            uint64
	rs               []entry // read set, when concurrent reads are tracked
	// obj is the synchronization object (a channel) whose address this
	// granule starts, when its history was recorded by the object's own
	// operations; see owned.
	obj *syncVar
	// wx holds the last writes of bytes that w does not cover, when
	// goroutines write different bytes of the granule (neighbouring byte
	// or int32 variables): forgetting them would hide their races.
	wx []entry
}

// An entry is one access in a read set (a goroutine's last read) or in
// wx (the last write of some bytes): its epoch and site, the bytes of the
// granule it covers and whether it was atomic.
type entry struct {
	e      epoch
	site   uint64
	mask   uint8
	atomic bool
}

const shardCount = 1 << 10

type shard struct {
	mu sync.Mutex
	m  map[uintptr]*cell
	_  [64 - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof(map[uintptr]*cell(nil))]byte
}

type shadowTable struct {
	shards [shardCount]shard
}

var shadow shadowTable

func granuleShard(a uintptr) *shard {
	h := a >> 3
	h ^= h >> 17
	h *= 0x9e3779b97f4a7c15
	return &shadow.shards[h>>(64-10)]
}

// sweep deletes the histories that can no longer produce a report: those
// of non-global granules begun before the latest completed GC cycle.
func (s *shadowTable) sweep(gen uint32) {
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for a, c := range sh.m {
			if !c.global && c.gen < gen && !c.owned() {
				sh.remove(a)
			}
		}
		if len(sh.m) == 0 {
			sh.m = nil // let a map that grew large go
		}
		sh.mu.Unlock()
	}
}

// remove deletes the cell of granule a, which must exist; sh is locked.
func (sh *shard) remove(a uintptr) {
	delete(sh.m, a)
	filterAdd(a, -1)
	if len(sh.m) == 0 {
		gate.Add(-1) // after the last delete: see gate
	}
}

// owned reports whether the granule's history certainly belongs to the
// object now at its address, though GC cycles have completed since it
// began: the history began no earlier than the object's syncVar was made
// (born, an exact count taken after the object was allocated) and the
// object is still alive. Any earlier object at the address was alive when
// its own history was recorded, so it was freed by a later cycle, and
// whatever was allocated at the address after it has a larger born.
func (c *cell) owned() bool {
	return c.obj != nil && c.obj.heap && c.gen >= c.obj.born && c.obj.live.Value() != nil
}

// cells returns the number of granules with history, for tests.
func (s *shadowTable) cells() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}
