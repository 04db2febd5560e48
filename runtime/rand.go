package runtime

import (
	"math/bits"
	_ "unsafe" // go:linkname
)

// runtimeRand returns a uniformly distributed random uint64 from the Go
// runtime's per-thread ChaCha8 generator, seeded by the system at start-
// up: the generator math/rand/v2's top-level functions use. The runtime
// provides it to other packages under this name
// ($GOROOT/src/runtime/rand.go).
//
//go:linkname runtimeRand runtime.rand
func runtimeRand() uint64

// cheapRand returns a random uint32 from the Go runtime's per-thread
// wyrand generator, seeded by the system at start-up: not of
// cryptographic quality, and a multiply where runtimeRand's ChaCha8
// costs a block of keystream every 32 draws. The runtime provides it
// under this name ($GOROOT/src/runtime/rand.go, go.dev/issue/67401).
//
//go:linkname cheapRand runtime.cheaprand
func cheapRand() uint32

// randFloat64 returns a uniformly distributed float64 in [0, 1) drawn
// from the uint64s of next, as math/rand/v2's Float64 does: the top 53
// bits, each multiple of 2^-53 equally likely.
func randFloat64(next func() uint64) float64 {
	return float64(next()>>11) / (1 << 53)
}

// draws is a goroutine's own generator of FRESA's draws: wyrand, the
// generator behind cheapRand, with its state in the goroutine's detector
// state rather than the runtime's M, so that a draw is a few inlined
// instructions where cheapRand is a call, around which fresaSkip, a leaf
// without it, had to make a frame and keep its registers on the stack.
// It is seeded from cheapRand when the goroutine takes its slot
// (thread.takeSlot); unseeded, it would give every goroutine the same
// draws, not wrong ones.
type draws struct{ state uint64 }

// next returns a random uint32.
func (d *draws) next() uint32 {
	d.state += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(d.state, d.state^0xe7037ed1a0b428db)
	return uint32(hi ^ lo)
}

// seed starts d from a random state.
func (d *draws) seed() { d.state = uint64(cheapRand())<<32 | uint64(cheapRand()) }
