package runtime

import (
	"testing"
	"unsafe"
)

// TestSpawnRegisteredKeepsThread checks that a go statement in a
// goroutine the detector already knows forks that goroutine's own thread
// even when its profiler labels hold a spawn record that is not its own,
// as a goroutine's do when its creator started it inside a go statement's
// window, or while the gate was closed (&freshSpawn). Adopting the record
// gave the goroutine a second thread, and the child it forked knew
// nothing of the goroutine's accesses before the go statement.
func TestSpawnRegisteredKeepsThread(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels func() unsafe.Pointer // the record the goroutine inherited
	}{
		{"freshSpawn", func() unsafe.Pointer { return unsafe.Pointer(&freshSpawn) }},
		{"another goroutine's pending spawn", func() unsafe.Pointer {
			// A go statement's record that no goroutine took.
			var rec unsafe.Pointer
			inGoroutine(func() {
				old := GoSpawn()
				rec = getProfLabel()
				GoSpawned(old)
			})
			return rec
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setSampling(t, true)
			x := heapObject()
			write, read := newSite(), newSite()
			rec := tc.labels()
			before := Races()
			inGoroutine(func() {
				Write(x, 8, write) // the goroutine is registered here
				setProfLabel(rec)
				defer setProfLabel(nil)
				old := GoSpawn()
				done := make(chan struct{})
				go func() {
					defer close(done)
					Read(x, 8, read) // ordered after the write by the go statement
				}()
				GoSpawned(old)
				<-done
			})
			if n := Races() - before; n != 0 {
				t.Errorf("%d races reported: the child was not ordered after its creator's write", n)
			}
		})
	}
}

// TestGoroutineIsOneWord: the function literal of every rewritten go
// statement captures a Goroutine, so each word it has is in every such
// closure the program allocates. With a flag beside the pointer,
// errgroup's BenchmarkGo allocated 65 bytes a goroutine at rate 0 against
// 49 with one word (41 uninstrumented).
func TestGoroutineIsOneWord(t *testing.T) {
	if got, want := unsafe.Sizeof(Goroutine{}), unsafe.Sizeof(uintptr(0)); got != want {
		t.Errorf("Goroutine is %d bytes, want %d", got, want)
	}
	if !freshGoroutine.fresh() || (Goroutine{}).fresh() || (Goroutine{t: new(thread)}).fresh() {
		t.Error("fresh() does not tell freshGoroutine from the others")
	}
}
