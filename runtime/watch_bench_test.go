package runtime

import (
	"testing"
	"time"
)

// Costs of the static-sampling hooks; docs/static.md quotes them.

// BenchmarkWatchCRDisarmed is an unsampled access when no watchpoint is
// armed: a load and a branch.
func BenchmarkWatchCRDisarmed(b *testing.B) {
	freeAll()
	x := newWord()
	for b.Loop() {
		*CR(x, 1) += 1
	}
}

// BenchmarkWatchCRArmed is an unsampled access while a software
// watchpoint on other bytes is armed: the table is scanned.
func BenchmarkWatchCRArmed(b *testing.B) {
	restore := useEngineB(&engine{soft: true}, time.Hour)
	defer restore()
	access64(newWord(), true, true)
	x := newWord()
	for b.Loop() {
		*CR(x, 1) += 1
	}
}

// BenchmarkWatchArm is a sampled access that arms and frees a watchpoint.
func BenchmarkWatchArm(b *testing.B) {
	for _, name := range []string{"sw", "hw"} {
		b.Run(name, func(b *testing.B) {
			e := &engine{soft: true}
			if name == "hw" {
				if e = watcher(); e.hw == nil {
					b.Skip("no hardware watchpoints")
				}
			}
			restore := useEngineB(e, time.Hour)
			defer restore()
			x := newWord()
			for b.Loop() {
				SR(x, 1)
				freeAll()
			}
		})
	}
}

// BenchmarkWatchHWTrap is an access by the owner to bytes its hardware
// watchpoint watches: a debug exception and a sample each time.
func BenchmarkWatchHWTrap(b *testing.B) {
	e := watcher()
	if e.hw == nil {
		b.Skip("no hardware watchpoints")
	}
	restore := useEngineB(e, time.Hour)
	defer restore()
	x := newWord()
	SW(x, 1)
	for b.Loop() {
		store64(x, 1)
	}
	b.StopTimer()
	e.hw.flush()
}

// BenchmarkWatchOnSync is the clock tick of a synchronization operation
// in a static build, without and with a watchpoint armed by someone else.
func BenchmarkWatchOnSync(b *testing.B) {
	b.Run("disarmed", func(b *testing.B) {
		freeAll()
		for b.Loop() {
			onSync()
		}
	})
	b.Run("armed", func(b *testing.B) {
		restore := useEngineB(&engine{soft: true}, time.Hour)
		defer restore()
		done := make(chan struct{})
		go func() { access64(newWord(), true, true); close(done) }()
		<-done
		for b.Loop() {
			onSync()
		}
	})
}

func useEngineB(e *engine, limit time.Duration) func() {
	orig := watcher()
	freeAll()
	setEngine(e)
	old := watchLimit.Swap(int64(limit))
	return func() {
		freeAll()
		setEngine(orig)
		watchLimit.Store(old)
	}
}

// BenchmarkWatchSampleStack is a sampled access to the goroutine's own
// stack, which arms nothing: a site that the instrumenter could not prove
// local, in a loop (fastcache's benchmark at -seed=1).
func BenchmarkWatchSampleStack(b *testing.B) {
	restore := useEngineB(watcher(), time.Hour)
	defer restore()
	var x [2]uint64
	for b.Loop() {
		SW(&x[1], 1)
	}
}
