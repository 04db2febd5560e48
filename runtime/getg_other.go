//go:build !amd64 && !arm64

package runtime

// getg has no assembly implementation on this architecture. Goroutine
// identity falls back to the goroutine id parsed from runtime.Stack,
// which costs microseconds; see goid_fallback in goroutine.go.
func getg() uintptr { return 0 }

const haveGetg = false
