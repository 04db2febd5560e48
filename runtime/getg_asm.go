//go:build amd64 || arm64

package runtime

// getg returns the address of the current goroutine's runtime g struct.
// It costs about a nanosecond; see getg_amd64.s and getg_arm64.s.
func getg() uintptr

const haveGetg = true
