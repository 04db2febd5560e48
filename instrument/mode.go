package instrument

import (
	"fmt"
	"strings"
)

// A Mode is the detector that code is rewritten for. Its names are the
// values of racegen's -mode flag and of the detector runtime's buildMode
// constant, which the command writes into the runtime it builds.
type Mode int

const (
	// Dynamic gives every shared access a hook; the runtime decides at
	// run time what to sample (Pacer's periods over FastTrack). It is
	// the zero Mode.
	Dynamic Mode = iota
	// Static (CRSampler) samples access sites at build time; a sampled
	// access arms a watchpoint and races are clock races.
	Static
	// Collide (DataCollider) samples sites as Static does; a sampled
	// access waits while its watchpoint looks for a conflicting access.
	Collide
)

// modeNames are the modes' names, in Mode order.
var modeNames = [...]string{Dynamic: "dynamic", Static: "static", Collide: "collide"}

// Modes returns every Mode, in the order of their values.
func Modes() []Mode {
	ms := make([]Mode, len(modeNames))
	for i := range ms {
		ms[i] = Mode(i)
	}
	return ms
}

// String returns the name of m: "dynamic", "static" or "collide".
func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// ParseMode returns the Mode named s, as String names it.
func ParseMode(s string) (Mode, error) {
	for i, name := range modeNames {
		if s == name {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q: want %s", s, modeChoices())
}

// valid reports whether m is one of the Modes.
func (m Mode) valid() bool { return m >= 0 && int(m) < len(modeNames) }

// sampled reports whether m samples access sites at build time.
func (m Mode) sampled() bool { return m == Static || m == Collide }

// modeChoices lists the modes' names for a message: "a, b or c".
func modeChoices() string {
	names := modeNames[:]
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
