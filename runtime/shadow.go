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
// A cell's contents and its slot are guarded by its page's lock; regions
// and pages are created with compare-and-swap and never freed. One lock
// per page, rather than locks chosen by hashing the granule, keeps the
// lock in the cache of the core that is working through the page (a
// goroutine's accesses are mostly to nearby memory, and two goroutines
// rarely work in one 4 KiB page at once), and lets an access to a range
// take it once per page rather than once per granule.
const (
	addrBits   = 48
	regionBits = 26
	pageShift  = 12
	pageBytes  = 1 << pageShift
	regionLen  = 1 << (regionBits - pageShift)
	pageLen    = pageBytes >> 3
)

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
	mu   sync.Mutex
	n    atomic.Int32 // cells in the page; changed only under mu
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
// caller holds p's lock.
func (p *page) slot(a uintptr) **cell { return &p.c[a>>3%pageLen] }

// loadSlot returns the cell of granule a, which must lie in p, without
// the page's lock: see hasHistory.
func (p *page) loadSlot(a uintptr) *cell {
	return (*atomic.Pointer[cell])(unsafe.Pointer(p.slot(a))).Load()
}

// pages returns the pages made so far.
func (s *shadowTable) pages() []*page {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all[:len(s.all):len(s.all)]
}

// sweep deletes the histories that can no longer produce a report: those
// of non-global granules begun before the latest completed GC cycle.
func (s *shadowTable) sweep(gen uint32) {
	s.removeIf(func(c *cell) bool { return !c.global() && c.gen < gen && !c.owned() })
}

// removeIf deletes every cell for which drop reports true.
func (s *shadowTable) removeIf(drop func(*cell) bool) {
	for _, p := range s.pages() {
		p.mu.Lock()
		if p.n.Load() != 0 {
			for i, c := range p.c {
				if c != nil && drop(c) {
					p.remove(p.base+uintptr(i)<<3, &p.c[i])
				}
			}
		}
		p.mu.Unlock()
	}
}

// hasHistory reports whether any granule of [addr, addr+size) has a cell,
// without taking a lock. Outside sampling periods an access to memory
// without history needs no further work: this is Pacer's "sampling ||
// metadata != null" test, for an address instead of an object header.
//
// Slots and counts are written with atomic stores under the page's lock,
// so a cell made by an access that happened before this one is seen; one
// made concurrently may not be, as if the two accesses had been the other
// way round.
func (s *shadowTable) hasHistory(addr, size uintptr) bool {
	end := addr + size
	for a := addr &^ 7; a < end; {
		lim := min(end, a&^(pageBytes-1)+pageBytes)
		if p := s.peek(a); p != nil && p.n.Load() != 0 {
			for ; a < lim; a += 8 {
				if p.loadSlot(a) != nil {
					return true
				}
			}
		}
		a = lim
	}
	return false
}

// remove deletes the cell of granule a, which must exist, from its slot
// in p, whose lock the caller holds.
func (p *page) remove(a uintptr, slot **cell) {
	(*atomic.Pointer[cell])(unsafe.Pointer(slot)).Store(nil)
	if p.n.Add(-1) == 0 {
		gate.Add(-1) // after the last delete: see gate
	}
}

// insert puts the new cell c for granule a in its slot in p, whose lock
// the caller holds.
func (p *page) insert(a uintptr, slot **cell, c *cell) {
	if p.n.Load() == 0 {
		gate.Add(1) // before the insert: see gate
	}
	p.n.Add(1)
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
