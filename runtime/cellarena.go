package runtime

import (
	"sync"
	"unsafe"
)

// Pages' cell arrays (shadow.go) are carved out of chunks of anonymous
// memory, so that the cells of a program's whole heap are neither
// allocated nor scanned by the garbage collector, nor counted in the heap
// size that paces it. Pages are never freed, so a chunk is used up in
// order and never returned. Where the system maps no memory for the
// detector, each array is an ordinary heap object.
const cellChunkPages = 64 // 1.5 MiB of cells for 256 KiB of memory

var cellArena struct {
	mu   sync.Mutex
	next unsafe.Pointer // the next free array in the chunk
	left int            // arrays left in the chunk
}

// newCells returns a zeroed array of cells for one page.
func newCells() *[pageLen]cell {
	a := &cellArena
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.left == 0 {
		const size = unsafe.Sizeof([pageLen]cell{})
		a.next = mapCells(cellChunkPages * size)
		if a.next == nil {
			return new([pageLen]cell)
		}
		a.left = cellChunkPages
	}
	c := (*[pageLen]cell)(a.next)
	a.next = unsafe.Add(a.next, unsafe.Sizeof(*c))
	a.left--
	return c
}
