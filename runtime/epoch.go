package runtime

// An epoch is FastTrack's c@t: the value c of goroutine slot t's own clock,
// packed in one word so that a write epoch can be compared and stored
// without locks or allocation. The zero epoch means "no access": slot
// clocks start at 1.
type epoch uint64

const (
	tidBits  = 24
	maxTid   = 1<<tidBits - 1
	tidMask  = maxTid
	maxClock = 1<<(64-tidBits) - 1
)

func mkEpoch(tid uint32, clock uint64) epoch {
	return epoch(clock<<tidBits | uint64(tid))
}

func (e epoch) tid() uint32   { return uint32(e & tidMask) }
func (e epoch) clock() uint64 { return uint64(e) >> tidBits }
