//go:build !amd64 || race

package runtime

import "sync/atomic"

// unlockStore stores 0 in *v with release semantics: an atomic store,
// which on most architectures costs no more than that.
func unlockStore(v *atomic.Uint32) { v.Store(0) }
