//go:build !(linux && amd64)

package runtime

import goruntime "runtime"

// Hardware watchpoints are implemented for linux/amd64 only: they read the
// accessing goroutine's g from R14, a register of the amd64 Go ABI.
type hwWatch struct{}

func openHW() (*hwWatch, error) {
	return nil, errorString("not implemented on " + goruntime.GOOS + "/" + goruntime.GOARCH)
}

func (h *hwWatch) arm(i int, lo, n uintptr, write bool) error {
	return errorString("no hardware watchpoints")
}
func (h *hwWatch) disarm(i int) error { return nil }
func (h *hwWatch) flush()             {}
func (h *hwWatch) loop()              {}
