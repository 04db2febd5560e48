//go:build !amd64 && !arm64

package runtime

import goruntime "runtime"

// creators fills pcs with the stack of the function that called GoFork or
// GoSpawn, with runtime.Callers on architectures whose frame pointers
// racegen does not follow (see callers_fp.go).
//
//go:noinline
func creators(pcs []uintptr) int { return goruntime.Callers(3, pcs) }
