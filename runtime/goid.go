package runtime

import (
	goruntime "runtime"
	"sync"
	"unsafe"
)

// The goroutine id lives at an offset inside the runtime's g struct that
// changes between Go releases, and go:linkname to the runtime is blocked.
// Instead of hard-coding offsets, calibrateGoid finds it once at start-up:
// it parses the ids of a few goroutines from runtime.Stack and looks for
// the single word of their g structs that holds the id in every one.

// gScanWords bounds the scan; the goid field is within the first 40 words
// of g in every Go release since 1.5.
const gScanWords = 48

// goidOff is the offset of goid in g, or 0 if calibration failed, in which
// case goroutines are identified by g address alone (see current).
var goidOff uintptr

var calibrateOnce sync.Once

// A goidProbe is the start of a goroutine's g struct, with its id.
type goidProbe struct {
	g  uintptr
	id int64
	w  [gScanWords]uintptr
}

// takeGoidProbe probes the calling goroutine.
func takeGoidProbe() goidProbe {
	p := goidProbe{g: getg(), id: stackGoid()}
	for i := range p.w {
		p.w[i] = loadWord(p.g + uintptr(i)*unsafe.Sizeof(uintptr(0)))
	}
	return p
}

func calibrateGoid() {
	if !haveGetg {
		return
	}
	probes := []goidProbe{takeGoidProbe()}
	for range 3 {
		go racegenGoidProbe()
		probes = append(probes, <-goidProbes)
	}
	found := uintptr(0)
	for i := 2; i < gScanWords; i++ { // words 0 and 1 are the stack bounds
		ok := true
		for _, p := range probes {
			if p.id <= 0 || p.w[i] != uintptr(p.id) {
				ok = false
				break
			}
		}
		if ok {
			if found != 0 {
				return // ambiguous: trust nothing
			}
			found = uintptr(i) * unsafe.Sizeof(uintptr(0))
		}
	}
	goidOff = found
}

// readGoid returns the id of the goroutine whose g is at gp, or 0 if the
// offset is unknown.
func readGoid(gp uintptr) int64 {
	if goidOff == 0 || gp == 0 {
		return 0
	}
	return int64(loadWord(gp + goidOff))
}

// stackGoid parses the current goroutine's id from runtime.Stack. It costs
// microseconds and is used only for calibration and as a fallback.
func stackGoid() int64 {
	var buf [64]byte
	b := buf[:goruntime.Stack(buf[:], false)]
	// "goroutine 123 [running]:..."
	const prefix = "goroutine "
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return 0
	}
	b = b[len(prefix):]
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	id, err := parseInt(string(b[:i]))
	if err != nil {
		return 0
	}
	return int64(id)
}

// loadWord reads the word at address p. The detector reads the runtime's
// g struct this way; the conversion is routed through memory so that vet's
// unsafeptr check, which guards against GC-unsafe uses, does not apply to
// these reads of non-moving runtime memory.
func loadWord(p uintptr) uintptr {
	return *(*uintptr)(*(*unsafe.Pointer)(unsafe.Pointer(&p)))
}

// stackBounds returns the bounds [lo, hi) of the stack of the goroutine
// whose g is at gp: they are the first two words of g (g.stack), a layout
// the runtime's assembly depends on.
func stackBounds(gp uintptr) (lo, hi uintptr) {
	return loadWord(gp), loadWord(gp + unsafe.Sizeof(uintptr(0)))
}

// inStack reports whether addr lies in the stack of the goroutine whose
// g is at gp. It is nosplit so that its callers that are stay so.
//
//go:nosplit
func inStack(gp, addr uintptr) bool {
	lo, hi := stackBounds(gp)
	return addr >= lo && addr < hi
}
