//go:build linux && (amd64 || arm64)

package runtime

import (
	"sync"
	"unsafe"
)

// newRegionTable allocates the region table outside the Go heap, so that
// it neither counts towards the heap's size, which would change when the
// program collects garbage, nor is zeroed by a write: anonymous memory
// comes zeroed and stays virtual until written.
func newRegionTable() []uintptr {
	const n = 1 << (addrBits - regionBits)
	mem, err := sysMmap(-1, n*8, protRead|protWrite, mapPrivate|mapAnon|mapNoReserve)
	if err != nil {
		return make([]uintptr, n)
	}
	return unsafe.Slice((*uintptr)(unsafe.Pointer(&mem[0])), n)
}

// mapCells returns n bytes of zeroed memory outside the Go heap for cell
// arrays (cellarena.go), or nil if the system refuses it.
func mapCells(n uintptr) unsafe.Pointer {
	mem, err := sysMmap(-1, n, protRead|protWrite, mapPrivate|mapAnon|mapNoReserve)
	if err != nil {
		return nil
	}
	return unsafe.Pointer(&mem[0])
}

// discardMemory gives the n bytes at p, memory mapped by mapCells and
// whole pages of the system's (cellsDiscardable), back to the system,
// which maps zeroed memory there again at the next write (madvise
// MADV_DONTNEED). It reports whether it did.
func discardMemory(p unsafe.Pointer, n uintptr) bool {
	_, e := rawSyscall6(nrMadvise, uintptr(p), n, madvDontneed, 0, 0, 0)
	return e == 0
}

// cellsDiscardable reports whether the system's pages tile the cell
// arrays, which lie back to back from the page-aligned start of each
// chunk (cellarena.go), so that one can be given back whole: with 4 KiB
// pages, not with the 16 or 64 KiB pages some arm64 kernels use, where
// the sweeper leaves cell memory alone rather than take a page's locks
// for nothing.
var cellsDiscardable = sync.OnceValue(func() bool {
	ps := uintptr(systemPageSize())
	return ps != 0 && unsafe.Sizeof([pageLen]cell{})%ps == 0
})

// systemPageSize returns the size of the system's memory pages. The Go
// runtime provides it under this name (syscall_Getpagesize in
// $GOROOT/src/runtime/runtime.go).
//
//go:linkname systemPageSize syscall.Getpagesize
func systemPageSize() int
