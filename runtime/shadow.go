package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// The shadow is the access history of memory: a cell (cell.go) for each
// 8-byte granule that instrumented code has accessed.
//
// Cells are found through a page table indexed by address, so that a
// lookup is three dependent loads instead of a hash table probe: a
// region table for each 64 MiB of the address space, holding a page of
// cell pointers for each 4 KiB that instrumented code has touched. The
// region table is one array of uintptrs, which the garbage collector does
// not scan and the kernel backs with memory only where it is written;
// regions and pages are ordinary heap objects, kept alive by the lists
// below. Addresses beyond 48 bits have no history.
//
// A cell's contents and its slot are guarded by the lock of its 64-byte
// line, one of lineLockCount chosen by hashing the line; regions and
// pages are created under the table's lock, published with atomic stores
// and never freed. A lock per line keeps it in the cache of the core
// working through that memory for eight granules in a row, and lets a
// range access take it once per line; locks chosen per granule (the
// first design) spread every goroutine's accesses over all the lock
// lines, and one lock per page (the second) made goroutines that work on
// neighbouring small objects wait for each other. Locks stored in the
// page, one per line, did not measurably beat the hashed ones on msort.
const (
	addrBits   = 48
	regionBits = 26
	pageShift  = 12
	pageBytes  = 1 << pageShift
	regionLen  = 1 << (regionBits - pageShift)
	pageLen    = pageBytes >> 3

	lineShift     = 6
	lineBytes     = 1 << lineShift
	lineLockBits  = 10
	lineLockCount = 1 << lineLockBits
)

// lineLocks guard the cells of the 64-byte lines that hash to them, one
// to a cache line.
var lineLocks [lineLockCount]struct {
	spinLock
	_ [64 - unsafe.Sizeof(spinLock{})]byte
}

// lineLock returns the lock of the line holding address a.
func lineLock(a uintptr) *spinLock {
	h := uint64(a>>lineShift) * 0x9e3779b97f4a7c15
	return &lineLocks[h>>(64-lineLockBits)].spinLock
}

type region [regionLen]atomic.Pointer[page]

type regionTable [1 << (addrBits - regionBits)]uintptr

// slot returns the slot of a's region in the table.
func (t *regionTable) slot(a uintptr) *atomic.Pointer[region] {
	// The table's words are uintptrs to the garbage collector, which
	// therefore does not scan it; they hold *region, kept alive by keep.
	return (*atomic.Pointer[region])(unsafe.Pointer(&t[a>>regionBits%uintptr(len(t))]))
}

// A page holds the cell pointers of the granules of one 4 KiB page.
type page struct {
	n    atomic.Int32 // cells in the page
	base uintptr
	c    [pageLen]*cell
}

type shadowTable struct {
	// regions holds a *region by address >> regionBits, as a uintptr;
	// the table is made on first use.
	regions atomic.Pointer[regionTable]

	mu   sync.Mutex // guards the lists, which keep regions and pages alive
	keep []*region
	all  []*page
}

var shadow shadowTable

// peek returns the page of cell pointers for address a, or nil if there
// is none. It takes no lock.
func (s *shadowTable) peek(a uintptr) *page {
	t := s.regions.Load()
	if t == nil || a>>addrBits != 0 {
		return nil
	}
	r := t.slot(a).Load()
	if r == nil {
		return nil
	}
	return r[a>>pageShift%regionLen].Load()
}

// pageOf returns the page of cell pointers for address a, creating it if
// make is set, or nil.
func (s *shadowTable) pageOf(a uintptr, make bool) *page {
	if p := s.peek(a); p != nil || !make || a>>addrBits != 0 {
		return p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.regions.Load()
	if t == nil {
		t = (*regionTable)(newRegionTable())
		s.regions.Store(t)
	}
	rs := t.slot(a)
	r := rs.Load()
	if r == nil {
		r = new(region)
		s.keep = append(s.keep, r)
		rs.Store(r)
	}
	ps := &r[a>>pageShift%regionLen]
	p := ps.Load()
	if p == nil {
		p = &page{base: a &^ (pageBytes - 1)}
		s.all = append(s.all, p)
		ps.Store(p)
	}
	return p
}

// slot returns the slot of granule a's cell, which must lie in p. The
// caller holds a's line lock.
func (p *page) slot(a uintptr) **cell { return &p.c[a>>3%pageLen] }

// loadSlot returns the cell of granule a, which must lie in p, without
// its line's lock: see hasHistory.
func (p *page) loadSlot(a uintptr) *cell {
	return (*atomic.Pointer[cell])(unsafe.Pointer(p.slot(a))).Load()
}

// pages returns the pages made so far.
func (s *shadowTable) pages() []*page {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all[:len(s.all):len(s.all)]
}

// sweep deletes the histories that can no longer produce a report, or
// are not to (cell.expired): those begun before the latest completed GC
// cycle, of granules whose object it may have freed.
func (s *shadowTable) sweep(gen uint32) {
	s.removeIf(func(c *cell) bool { return c.expired(gen) })
}

// removeIf deletes every cell for which drop reports true.
func (s *shadowTable) removeIf(drop func(*cell) bool) {
	for _, p := range s.pages() {
		if p.n.Load() == 0 {
			continue
		}
		for a := p.base; a < p.base+pageBytes; a += lineBytes {
			if !p.hasCells(a, a+lineBytes) {
				continue // a cell made concurrently is new: nothing to remove
			}
			mu := lineLock(a)
			mu.Lock()
			for g := a; g < a+lineBytes; g += 8 {
				if c := *p.slot(g); c != nil && drop(c) {
					p.remove(p.slot(g))
				}
			}
			mu.Unlock()
		}
	}
}

// hasHistory reports whether any granule of [addr, addr+size) has a cell,
// without taking a lock. Outside sampling periods an access to memory
// without history needs no further work: this is Pacer's "sampling ||
// metadata != null" test, for an address instead of an object header.
//
// Slots and counts are written with atomic stores under the line locks,
// so a cell made by an access that happened before this one is seen; one
// made concurrently may not be, as if the two accesses had been the other
// way round.
func (s *shadowTable) hasHistory(addr, size uintptr) bool {
	end := addr + size
	for a := addr &^ 7; a < end; {
		lim := min(end, a&^(pageBytes-1)+pageBytes)
		if filterBucket(a).Load() != 0 {
			if p := s.peek(a); p != nil && p.n.Load() != 0 && p.hasCells(a, lim) {
				return true
			}
		}
		a = lim
	}
	return false
}

// hasCells reports, without a lock, whether a granule of [lo, hi), which
// must lie in p, has a cell.
func (p *page) hasCells(lo, hi uintptr) bool {
	for g := lo &^ 7; g < hi; g += 8 {
		if p.loadSlot(g) != nil {
			return true
		}
	}
	return false
}

// pageFilter counts, for each of filterLen buckets of pages, the pages
// in it that hold cells: a page at address a is in bucket a>>pageShift
// modulo filterLen, so the buckets cover 16 MiB of consecutive pages
// before they repeat. An access outside a sampling period loads its
// bucket before it walks the page table, whose loads depend on each
// other: while the history left over from sampling periods lies on a few
// pages, nearly every such access finds its bucket empty and stops there.
// The counts change at the same transitions as the gate's, and in the
// same order around the cell's store, so a zero read means what a closed
// gate means, for the pages of the bucket.
const filterLen = 1 << 12

var pageFilter [filterLen]atomic.Int32

// filterBucket returns the count of the bucket of the page holding a.
func filterBucket(a uintptr) *atomic.Int32 { return &pageFilter[a>>pageShift%filterLen] }

// remove deletes the cell in slot, a slot of p whose line lock the caller
// holds.
//
// The page's count is changed by goroutines holding different line
// locks, so only the transitions that atomic adds return are trusted: the
// one that takes it from 0 to 1 opens the gate for the page, before the
// cell is stored, and the one that takes it from 1 to 0 closes it, after
// the cell is gone. Those transitions alternate, so the gate counts the
// page exactly once while it holds a cell.
func (p *page) remove(slot **cell) {
	(*atomic.Pointer[cell])(unsafe.Pointer(slot)).Store(nil)
	if p.n.Add(-1) == 0 {
		// After the last delete: see gate.
		filterBucket(p.base).Add(-1)
		gateDec()
	}
}

// insert puts the new cell c in slot, a slot of p whose line lock the
// caller holds.
func (p *page) insert(slot **cell, c *cell) {
	if p.n.Add(1) == 1 {
		// Before the insert: see gate.
		gateInc()
		filterBucket(p.base).Add(1)
	}
	(*atomic.Pointer[cell])(unsafe.Pointer(slot)).Store(c)
}

// cells returns the number of granules with history, for tests.
func (s *shadowTable) cells() int {
	n := 0
	for _, p := range s.pages() {
		n += int(p.n.Load())
	}
	return n
}
