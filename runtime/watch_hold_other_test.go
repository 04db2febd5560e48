//go:build !(linux && amd64)

package runtime

// Without hardware watchpoints there is no drain to hold off.
func (h *hwWatch) hold()    {}
func (h *hwWatch) release() {}
