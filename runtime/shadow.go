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

// A page holds the cell pointers of the granules of one 4 KiB page.
type page struct {
	mu   sync.Mutex
	n    int // cells in the page, guarded by mu
	base uintptr
	c    [pageLen]*cell
}

type shadowTable struct {
	regions []uintptr // *region by address >> regionBits, made on first use
	once    sync.Once

	mu   sync.Mutex // guards the lists, which keep regions and pages alive
	keep []*region
	all  []*page
}

var shadow shadowTable

// pageOf returns the page of cell pointers for address a, creating it if
// make is set, or nil.
func (s *shadowTable) pageOf(a uintptr, make bool) *page {
	if a>>addrBits != 0 {
		return nil
	}
	s.once.Do(func() { s.regions = newRegionTable() })
	// The table's words are uintptrs to the garbage collector, which
	// therefore does not scan it; they hold *region, kept alive by keep.
	slot := (*atomic.Pointer[region])(unsafe.Pointer(&s.regions[a>>regionBits]))
	r := slot.Load()
	if r == nil {
		if !make {
			return nil
		}
		s.mu.Lock()
		if r = slot.Load(); r == nil {
			r = new(region)
			s.keep = append(s.keep, r)
			slot.Store(r)
		}
		s.mu.Unlock()
	}
	ps := &r[a>>pageShift%regionLen]
	p := ps.Load()
	if p == nil && make {
		s.mu.Lock()
		if p = ps.Load(); p == nil {
			p = &page{base: a &^ (pageBytes - 1)}
			s.all = append(s.all, p)
			ps.Store(p)
		}
		s.mu.Unlock()
	}
	return p
}

// slot returns the slot of granule a's cell, which must lie in p. The
// caller holds p's lock.
func (p *page) slot(a uintptr) **cell { return &p.c[a>>3%pageLen] }

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
		if p.n != 0 {
			for i, c := range p.c {
				if c != nil && drop(c) {
					p.remove(p.base+uintptr(i)<<3, &p.c[i])
				}
			}
		}
		p.mu.Unlock()
	}
}

// remove deletes the cell of granule a, which must exist, from its slot
// in p, whose lock the caller holds.
func (p *page) remove(a uintptr, slot **cell) {
	*slot = nil
	filterAdd(a, -1)
	if p.n--; p.n == 0 {
		gate.Add(-1) // after the last delete: see gate
	}
}

// insert puts the new cell c for granule a in its slot in p, whose lock
// the caller holds.
func (p *page) insert(a uintptr, slot **cell, c *cell) {
	if p.n == 0 {
		gate.Add(1) // before the insert: see gate
	}
	p.n++
	*slot = c
	filterAdd(a, 1)
}

// cells returns the number of granules with history, for tests.
func (s *shadowTable) cells() int {
	n := 0
	for _, p := range s.pages() {
		p.mu.Lock()
		n += p.n
		p.mu.Unlock()
	}
	return n
}
