package runtime

import (
	goruntime "runtime"
	"testing"
	"unsafe"
)

// The AccessIdle benchmarks are an access outside a sampling period while
// the gate is open, to memory without history, through the hook that
// instrumented code calls: the test that lets it skip everything else. The words are walked in order, as a loop over a slice
// would. Elsewhere, history lingers for one word (AccessIdle) or for
// 256 Ki words (AccessIdleBusy), as after a sampling period in a program
// that works through a large heap.
func BenchmarkAccessIdle(b *testing.B)     { benchmarkAccessIdle(b, 1) }
func BenchmarkAccessIdleBusy(b *testing.B) { benchmarkAccessIdle(b, 1<<18) }

func benchmarkAccessIdle(b *testing.B, histories int) {
	const n = 1 << 17 // 1 MiB of words
	words := make([]uint64, n)
	defer goruntime.KeepAlive(words)
	other := make([]uint64, histories)
	idleSink = other // on the heap: the goroutine's own stack has no history
	defer func() { idleSink = nil }()
	switchSampling(true)
	b.Cleanup(func() { switchSampling(true) })
	for i := range other {
		Write(unsafe.Pointer(&other[i]), 8, newSite())
	}
	switchSampling(false)
	if !gateOpen() {
		b.Fatal("gate closed with a cell recorded")
	}
	site := newSite()
	i := 0
	var c Ctx
	for b.Loop() {
		_ = *R(&words[i], site, &c)
		i = (i + 1) & (n - 1)
	}
}

var idleSink []uint64

// BenchmarkAccessLingering is a goroutine reading, outside a sampling
// period, a word whose history is its own read from the last sampling
// period: a loop over a variable after the period ends.
func BenchmarkAccessLingering(b *testing.B) {
	w := new(uint64)
	idleSink = []uint64{0}
	defer func() { idleSink = nil }()
	defer goruntime.KeepAlive(w)
	switchSampling(true)
	b.Cleanup(func() { switchSampling(true) })
	site := newSite()
	a := unsafe.Pointer(w)
	Read(a, 8, site)
	switchSampling(false)
	if !shadow.hasHistory(uintptr(a), 8) {
		b.Fatal("no history left by the sampled read")
	}
	for b.Loop() {
		Read(a, 8, site)
	}
}
