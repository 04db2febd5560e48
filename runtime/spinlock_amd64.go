//go:build amd64 && !race

package runtime

import "sync/atomic"

// unlockStore stores 0 in *v with a plain move. On amd64 a store is never
// reordered with the loads and stores before it (the TSO model), so the
// plain store releases, and the call, which the compiler cannot see into,
// keeps it from moving the holder's writes past it. Under the race
// detector the portable version runs instead, which the detector
// understands.
//
//go:noescape
func unlockStore(v *atomic.Uint32)
