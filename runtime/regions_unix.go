//go:build unix

package runtime

import (
	"syscall"
	"unsafe"
)

// newRegionTable allocates the region table outside the Go heap, so that
// it neither counts towards the heap's size, which would change when the
// program collects garbage, nor is zeroed by a write: anonymous memory
// comes zeroed and stays virtual until written.
func newRegionTable() []uintptr {
	const n = 1 << (addrBits - regionBits)
	mem, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return make([]uintptr, n)
	}
	return unsafe.Slice((*uintptr)(unsafe.Pointer(&mem[0])), n)
}
