package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// The shadow is the access history of memory: a cell (cell.go) for each
// 8-byte granule that instrumented code has accessed.
//
// Cells are found through a page table indexed by address: a region
// table for each 64 MiB of the address space, holding a page for each
// 4 KiB that instrumented code has touched. A page is a small header in
// the Go heap (a count, a bitmap of the granules that have history) and
// an array of 512 cells stored in place, found by indexing: no cell is
// allocated and there is no pointer to follow from the page to a cell.
// On Linux the cell arrays are carved out of anonymous
// mappings (cellarena.go), outside the Go heap and the heap size that
// paces its collections, and backed by the kernel only where written.
// The region table is one array of uintptrs, likewise mapped, which the
// collector does not scan; regions and page headers are ordinary heap
// objects, kept alive by the lists below. Addresses beyond 48 bits have
// no history.
//
// A cell and its bit are guarded by the lock of its 64-byte line, one of
// lineLockCount chosen by hashing the line; regions and pages are created
// under the table's lock, published with atomic stores and never freed.
// A lock per line keeps it in the cache of the core working through that
// memory for eight granules in a row, and lets a range access take it
// once per line; locks chosen per granule (the first design) spread every
// goroutine's accesses over all the lock lines, and one lock per page
// (the second) made goroutines that work on neighbouring small objects
// wait for each other. Locks stored in the page, one per line, did not
// measurably beat the hashed ones on msort.
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
func lineLock(a uintptr) *spinLock { return &lineLocks[lineLockIndex(a)].spinLock }

// lineLockIndex returns the index in lineLocks of the lock of the line
// holding address a.
func lineLockIndex(a uintptr) uint64 {
	h := uint64(a>>lineShift) * 0x9e3779b97f4a7c15
	return h >> (64 - lineLockBits)
}

type region [regionLen]atomic.Pointer[page]

type regionTable [1 << (addrBits - regionBits)]uintptr

// slot returns the slot of a's region in the table.
func (t *regionTable) slot(a uintptr) *atomic.Pointer[region] {
	// The table's words are uintptrs to the garbage collector, which
	// therefore does not scan it; they hold *region, kept alive by keep.
	return (*atomic.Pointer[region])(unsafe.Pointer(&t[a>>regionBits%uintptr(len(t))]))
}

// A page holds the cells of the granules of one 4 KiB page.
type page struct {
	n    atomic.Int32 // granules with history in the page
	base uintptr
	// has holds a bit for each granule with history, set and cleared
	// under the granule's line lock and read without it (hasHistory).
	has [pageLen / 64]atomic.Uint64
	c   *[pageLen]cell // in a cell arena; cells without history are zero
	// mapped reports that c lies in memory the detector mapped, which
	// it can give back to the system while the page has no history;
	// dirty, that c may have been written since it last did
	// (release.go).
	mapped bool
	dirty  atomic.Bool
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
		p = newPage(a &^ (pageBytes - 1))
		s.all = append(s.all, p)
		ps.Store(p)
	}
	return p
}

// cell returns granule a's cell, which must lie in p. The caller holds
// a's line lock.
func (p *page) cell(a uintptr) *cell { return &p.c[a>>3%pageLen] }

// present reports, without a lock, whether granule a, which must lie in
// p, has history: see hasHistory.
func (p *page) present(a uintptr) bool {
	i := a >> 3 % pageLen
	return p.has[i/64].Load()&(1<<(i%64)) != 0
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

// removeIf deletes every cell for which drop reports true. Below rate 1
// it then gives back the memory of every page left empty, by this pass or
// by accesses since the last (an unsampled write discards history).
func (s *shadowTable) removeIf(drop func(*cell) bool) {
	var r releaser
	for _, p := range s.pages() {
		if p.n.Load() != 0 {
			p.removeIf(drop)
		}
		if boundedHistory && p.n.Load() == 0 {
			r.add(p)
		}
	}
	r.flush()
}

// removeIf deletes every cell of p for which drop reports true.
func (p *page) removeIf(drop func(*cell) bool) {
	for a := p.base; a < p.base+pageBytes; a += lineBytes {
		if !p.hasCells(a, a+lineBytes) {
			continue // a cell made concurrently is new: nothing to remove
		}
		mu := lineLock(a)
		mu.Lock()
		for g := a; g < a+lineBytes; g += 8 {
			if p.present(g) && drop(p.cell(g)) {
				p.remove(g)
			}
		}
		mu.Unlock()
	}
}

// hasHistory reports whether any granule of [addr, addr+size) has a cell,
// without taking a lock. Outside sampling periods an access to memory
// without history needs no further work: this is Pacer's "sampling ||
// metadata != null" test, for an address instead of an object header.
//
// Bits and counts are written with atomic operations under the line
// locks, so history recorded by an access that happened before this one
// is seen; history recorded concurrently may not be, as if the two
// accesses had been the other way round.
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
// must lie in p, has history.
func (p *page) hasCells(lo, hi uintptr) bool {
	// Granule indices i to j-1, 64 to a word of has.
	i, j := lo>>3%pageLen, (hi-1)>>3%pageLen+1
	for i < j {
		w := i / 64
		lim := min(j, (w+1)*64)
		m := ^uint64(0) >> (64 - (lim - i)) << (i % 64)
		if p.has[w].Load()&m != 0 {
			return true
		}
		i = lim
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

// remove deletes the history of granule a of p, whose line lock the
// caller holds.
//
// The page's count is changed by goroutines holding different line
// locks, so only the transitions that atomic adds return are trusted: the
// one that takes it from 0 to 1 opens the gate for the page, before the
// cell is stored, and the one that takes it from 1 to 0 closes it, after
// the cell is gone. Those transitions alternate, so the gate counts the
// page exactly once while it holds a cell.
func (p *page) remove(a uintptr) {
	p.cell(a).reset(0)
	i := a >> 3 % pageLen
	p.has[i/64].And(^(1 << (i % 64)))
	if p.n.Add(-1) == 0 {
		// After the last delete: see gate.
		filterBucket(p.base).Add(-1)
		gateDec()
	}
}

// insert gives granule a of p, whose line lock the caller holds, a
// history that begins at GC count gen, and returns its cell.
func (p *page) insert(a uintptr, gen uint32) *cell {
	if p.n.Add(1) == 1 {
		// Before the insert: see gate.
		gateInc()
		filterBucket(p.base).Add(1)
		p.dirty.Store(true)
	}
	// A cell without history is all zeros (remove zeroes it, and the
	// arena's memory comes zeroed), so its first write is a store of gen
	// alone. Reading it first, as reset does, would make the kernel map
	// the shared zero page for the read and then copy it for the write,
	// flushing every processor's TLB: 4% of fastcache's Set at rate 1,
	// in smp_call_function_many_cond under do_wp_page.
	c := p.cell(a)
	c.gen = gen
	i := a >> 3 % pageLen
	p.has[i/64].Or(1 << (i % 64))
	return c
}

// cells returns the number of granules with history, for tests.
func (s *shadowTable) cells() int {
	n := 0
	for _, p := range s.pages() {
		n += int(p.n.Load())
	}
	return n
}
