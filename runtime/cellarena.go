package runtime

import (
	"sync"
	"unsafe"
)

// The shadow's pages (shadow.go), their headers and their cell arrays,
// are carved out of chunks of anonymous memory, so that the shadow of a
// program's whole heap is neither allocated nor scanned by the garbage
// collector, nor counted in the heap size that paces it, nor in the
// allocations that a program's testing.AllocsPerRun counts as its own
// (a page is made for each 4 KiB that instrumented code first touches, so
// a test that allocates a fresh buffer at each run made pages at each
// run). Neither holds a pointer into the Go heap. Pages are never freed,
// so a chunk is used up in order and never unmapped, though below rate 1
// the memory of an empty page's cells goes back to the system
// (release.go). Where the system
// maps no memory for the detector, each is an ordinary heap object.
const (
	cellChunkPages = 64  // 1.5 MiB of cells for 256 KiB of memory
	headChunkPages = 512 // page headers for 2 MiB of memory
)

// An arena hands out zeroed blocks of one size from mapped chunks.
type arena struct {
	mu    sync.Mutex
	next  unsafe.Pointer // the next free block in the chunk
	left  int            // blocks left in the chunk
	size  uintptr        // of a block, a multiple of 8
	chunk int            // blocks to a chunk
}

var (
	cellArena = arena{size: unsafe.Sizeof([pageLen]cell{}), chunk: cellChunkPages}
	headArena = arena{size: (unsafe.Sizeof(page{}) + 7) &^ 7, chunk: headChunkPages}
)

// alloc returns a zeroed block, or nil if the system maps no memory.
func (a *arena) alloc() unsafe.Pointer {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.left == 0 {
		a.next = mapCells(uintptr(a.chunk) * a.size)
		if a.next == nil {
			return nil
		}
		a.left = a.chunk
	}
	b := a.next
	a.next = unsafe.Add(a.next, a.size)
	a.left--
	return b
}

// newPage returns a page for the 4 KiB at base, with no history. A
// header in mapped memory, which the collector does not scan, never
// points to cells in the heap.
func newPage(base uintptr) *page {
	var p *page
	if c := (*[pageLen]cell)(cellArena.alloc()); c == nil {
		p = &page{c: new([pageLen]cell)}
	} else {
		if p = (*page)(headArena.alloc()); p == nil {
			p = new(page)
		}
		p.c, p.mapped = c, true
	}
	p.base = base
	return p
}
