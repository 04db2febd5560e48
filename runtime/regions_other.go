//go:build !unix

package runtime

// newRegionTable allocates the region table on the Go heap.
func newRegionTable() []uintptr { return make([]uintptr, 1<<(addrBits-regionBits)) }
