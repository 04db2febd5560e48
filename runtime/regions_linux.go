//go:build linux && (amd64 || arm64)

package runtime

import "unsafe"

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
