package runtime

import (
	"io"
	"runtime/metrics"
	"unsafe"
)

// Hooks into the detector's internals for the external tests.

// SetOutput sends reports to w until the returned function restores the
// previous writer.
func SetOutput(w io.Writer) (restore func()) {
	out.mu.Lock()
	old := out.hook
	out.hook = func(b []byte) { w.Write(b) }
	out.mu.Unlock()
	return func() {
		out.mu.Lock()
		out.hook = old
		out.mu.Unlock()
	}
}

// ShadowCells returns the number of granules with access history.
func ShadowCells() int { return shadow.cells() }

// SyncVars returns the number of synchronization objects tracked.
func SyncVars() int { return syncs.count() }

// Slots returns the number of goroutine slots ever allocated and the
// number waiting in quarantine.
func Slots() (allocated, quarantined int) {
	slots.mu.Lock()
	defer slots.mu.Unlock()
	return int(slots.next), len(slots.free) - slots.head
}

// GoroutineTableLen returns the number of g structs the gtable knows.
func GoroutineTableLen() int {
	gtab.mu.Lock()
	defer gtab.mu.Unlock()
	return gtab.n
}

const QuarantineSlots = quarantineSlots

// DefaultSlots is the default of the slots option.
const DefaultSlots = defaultSlots

// CurrentSlot returns the slot of the calling goroutine.
func CurrentSlot() uint32 { return current().tid }

// SyncGCGen brings the detector's GC cycle count up to date, as a report
// does, so that a test starts without a pending catch-up.
func SyncGCGen() uint32 { return exactGen() }

// GCGen returns the detector's lower bound of completed GC cycles.
func GCGen() uint32 { return gcGen.Load() }

// CellGen returns the GC cycle count at which the history of the granule
// at addr began, and whether the granule has history.
func CellGen(addr uintptr) (uint32, bool) {
	p := shadow.peek(addr)
	if p == nil {
		return 0, false
	}
	mu := lineLock(addr)
	mu.Lock()
	defer mu.Unlock()
	if a := addr &^ 7; p.present(a) {
		return p.cell(a).gen, true
	}
	return 0, false
}

// GCCycles returns the number of completed GC cycles, from the runtime.
func GCCycles() uint32 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return uint32(s[0].Value.Uint64())
}

// Sweep runs the sweeper's work synchronously.
func Sweep() {
	gen := exactGen()
	shadow.sweep(gen)
	syncs.sweep(gen)
	spawns.sweep(gen)
}

// Options is the parsed form of RACEGEN_OPTIONS, for table tests.
type Options struct {
	LogPath         string
	ExitCode        int
	HaltOnError     bool
	StripPathPrefix string
	JSON            bool
	Dedup           bool
	DebugClocks     bool
}

func ParseOptions(s string) (Options, []error) {
	o, errs := parseOptions(s)
	return Options{o.logPath, o.exitCode, o.haltOnError, o.stripPathPrefix, o.json, o.dedup, o.debugClocks}, errs
}

// ProfLabel returns the calling goroutine's profiler label pointer.
func ProfLabel() unsafe.Pointer { return getProfLabel() }

// PendingSpawns returns the number of entries of the spawn table.
func PendingSpawns() int {
	n := 0
	for i := range spawns.shards {
		sh := &spawns.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}
