//go:build !(linux && (amd64 || arm64))

package runtime

import "unsafe"

// newRegionTable allocates the region table on the Go heap: the detector
// maps memory itself only on Linux (sys_linux.go). The table is 32 MB of
// zeros that the heap takes fresh from the system, so it stays virtual
// until written, but it counts towards the heap's size.
func newRegionTable() []uintptr { return make([]uintptr, 1<<(addrBits-regionBits)) }

// mapCells maps no memory here: cell arrays come from the Go heap
// (cellarena.go).
func mapCells(n uintptr) unsafe.Pointer { return nil }

// discardMemory gives no memory back here, where mapCells maps none.
func discardMemory(p unsafe.Pointer, n uintptr) bool { return false }

// cellsDiscardable reports false: no cell memory is mapped here.
func cellsDiscardable() bool { return false }
