package runtime

import (
	"testing"
	"time"
)

// TestWatchDisarmFailure makes the kernel refuse the ioctls that aim and
// park a hardware watchpoint, and checks what becomes of its slot: an
// event that cannot be re-aimed at nothing is disabled where it is, and
// the slot is reused; one that can be neither may still watch the slot's
// last bytes, and the slot is retired for good, not armed again.
func TestWatchDisarmFailure(t *testing.T) {
	hw := requireHW(t)
	for _, tc := range []struct {
		name    string
		refuse  func(req uintptr) bool
		retired bool
	}{
		{"modify refused", func(req uintptr) bool { return req == perfIocModify }, false},
		{"modify and disable refused", func(req uintptr) bool { return req == perfIocModify || req == perfIocDisable }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			useEngine(t, hw, time.Hour)
			orig := ioctl
			t.Cleanup(func() {
				ioctl = orig
				for i := range watchSlots {
					// Give back what the test retired, parked.
					if s := &watchSlots[i]; s.busy.Load() && s.rec.Load() == nil {
						if err := hw.hw.disarm(i); err != nil {
							t.Errorf("slot %d: %v", i, err)
						}
						s.busy.Store(false)
					}
				}
			})
			ioctl = func(fd int, req, arg uintptr) error {
				if tc.refuse(req) {
					return eNODEV
				}
				return orig(fd, req, arg)
			}
			retired, dropped := watchStats.retired.Load(), watchStats.dropped.load()
			access64(newWord(), false, true) // a sampled read: arm a slot
			if n := watchStats.dropped.load() - dropped; n != 1 {
				t.Errorf("%d samples dropped, want 1: the watchpoint could not be armed", n)
			}
			if watchArmed.Load() != 0 {
				t.Errorf("a slot counts as armed (%b)", watchArmed.Load())
			}
			busy := 0
			for i := range watchSlots {
				if watchSlots[i].busy.Load() {
					busy++
				}
			}
			want := 0
			if tc.retired {
				want = 1
			}
			if n := watchStats.retired.Load() - retired; n != uint64(want) {
				t.Errorf("%d slots retired, want %d", n, want)
			}
			if busy != want {
				t.Errorf("%d slots held after the failed arm, want %d", busy, want)
			}

			// With the kernel cooperating again, the next sample is
			// armed, on the disabled slot or past the retired one,
			// and catches a race.
			ioctl = orig
			s := watchScenarios[0]
			if !s.run(t, hw) {
				t.Errorf("%s after the failed arm: no race reported", s.name)
			}
		})
	}
}
