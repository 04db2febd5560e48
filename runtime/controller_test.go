package runtime

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// newTestController returns a controller of rate r whose periods switch
// the real sampling state; the test's cleanup restores full detection
// and stops the counting.
func newTestController(t *testing.T, r float64) *controller {
	t.Helper()
	t.Cleanup(func() {
		setCounting(false)
		switchSampling(true)
	})
	return &controller{rate: r, rand: rand.New(rand.NewPCG(1, 2)).Uint64, slow: 1}
}

// TestControllerMeasures checks which periods count synchronization
// operations: every sampling period, every period until the program's
// pace is known, and then one non-sampling period in measureEvery.
func TestControllerMeasures(t *testing.T) {
	tests := []struct {
		name     string
		rate     float64
		paced    bool // a pace was measured before
		periods  int
		measured int
	}{
		{"no pace yet", 0.0001, false, 40, 40},
		{"paced, never sampling", 0.0001, true, 8 * measureEvery, 8},
		{"always sampling", 1, true, 20, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestController(t, tt.rate)
			if tt.paced {
				c.rateOff = 1e6
			}
			measured := 0
			for range tt.periods {
				c.begin()
				if c.measured != counting() {
					t.Fatalf("period %d: measured %v, but counting() = %v", c.n, c.measured, counting())
				}
				// syncGate is gate's count plus one while counting.
				if extra := atomic.LoadInt64(&syncGate) - atomic.LoadInt64(&gate); c.measured != (extra == 1) {
					t.Fatalf("period %d: measured %v, but syncGate exceeds gate by %d", c.n, c.measured, extra)
				}
				if c.on && !c.measured {
					t.Fatalf("period %d samples without counting", c.n)
				}
				if c.measured {
					measured++
				}
			}
			if measured != tt.measured {
				t.Errorf("%d of %d periods measured, want %d", measured, tt.periods, tt.measured)
			}
		})
	}
}

// TestControllerEnds checks when periods end: a measured one after its
// goal of operations or its time limit, which a sampling period stretches
// by the slowdown; one that is not measured after the time the measured
// pace takes for the goal, or the limit. The goal is periodWork, or what
// the program makes in periodTime outside sampling periods if that is
// more. Until the slowdown is known, the limit is maxSlow times
// periodTime for both kinds.
func TestControllerEnds(t *testing.T) {
	const pace = 4e6                                      // operations per second: periodWork in 500 µs
	const goal = uint64(pace * float64(periodTime) / 1e9) // what periodTime holds at that pace
	tests := []struct {
		name         string
		unpaced      bool // no sampling period measured yet
		on, measured bool
		work         uint64
		elapsed      time.Duration
		want         bool
	}{
		{"measured, short", false, false, true, goal - 1, time.Millisecond, false},
		{"measured, periodWork short of the goal", false, false, true, periodWork, 100 * time.Microsecond, false},
		{"measured, the goal", false, false, true, goal, 100 * time.Microsecond, true},
		{"measured, time up", false, false, true, 10, periodTime, true},
		{"sampling, stretched", false, true, true, 10, periodTime, false},
		{"sampling, stretched time up", false, true, true, 10, 3 * periodTime, true},
		{"unmeasured, at periodWork's time", false, false, false, 0, 500 * time.Microsecond, false},
		{"unmeasured, at the goal's time", false, false, false, 0, periodTime, true},
		{"unmeasured, work not counted", false, false, false, 1 << 40, 100 * time.Microsecond, false},
		{"unpaced sampling, past periodTime", true, true, true, 10, 10 * periodTime, false},
		{"unpaced sampling, the goal", true, true, true, goal, time.Millisecond, true},
		{"unpaced sampling, at the cap", true, true, true, 10, maxSlow * periodTime, true},
		{"unpaced quiet, past periodTime", true, false, true, 10, 10 * periodTime, false},
	}
	for _, tt := range tests {
		c := &controller{rateOff: pace, rateOn: pace / 3, slow: 3, on: tt.on, measured: tt.measured}
		if tt.unpaced {
			c.rateOn = 0
		}
		if got := c.ended(tt.work, int64(tt.elapsed)); got != tt.want {
			t.Errorf("%s: ended(%d, %v) = %v, want %v", tt.name, tt.work, tt.elapsed, got, tt.want)
		}
	}
	slowPace := &controller{rateOff: 1e3, rateOn: 1e2, slow: 10}
	if !slowPace.ended(0, periodTime) {
		t.Errorf("unmeasured period at a slow pace did not end after periodTime")
	}
	if g := slowPace.goal(); g != periodWork {
		t.Errorf("goal at a slow pace = %d, want periodWork", g)
	}
	slowPace.measured = true
	if !slowPace.ended(periodWork, int64(time.Millisecond)) {
		t.Errorf("measured period at a slow pace did not end after periodWork operations")
	}
}

// TestControllerWaits checks how long the pacer sleeps between its looks
// at the period: until the time limit or the pace's expected end of its
// goal, whichever is first, and at least pacerTick; a counted period whose
// pace is unknown polls every quarter of its length.
func TestControllerWaits(t *testing.T) {
	const pace = 4e6 // operations per second: a goal of periodTime's worth
	tests := []struct {
		name         string
		rateOff      float64
		unpaced      bool // no sampling period measured yet
		on, measured bool
		work         uint64
		elapsed      time.Duration
		want         time.Duration
	}{
		{"unmeasured, at its start", pace, false, false, false, 0, 0, periodTime},
		{"unmeasured, midway", pace, false, false, false, 0, time.Millisecond, time.Millisecond},
		{"unmeasured, near its end", pace, false, false, false, 0, 1900 * time.Microsecond, pacerTick},
		{"unmeasured, slow pace", 1e3, false, false, false, 0, 0, periodTime},
		{"measured, half the goal", pace, false, false, true, 4000, time.Millisecond, time.Millisecond},
		{"measured, slow pace, half of periodWork", 1e6, false, false, true, periodWork / 2, time.Millisecond, time.Millisecond},
		{"sampling, at the sampling pace", pace, false, true, true, 0, 0, 3 * periodTime},
		{"sampling, slow pace", 1e3, false, true, true, 0, 0, 3 * periodTime},
		{"sampling, pace unknown", pace, true, true, true, 0, 0, pacerTick},
		{"sampling, pace unknown, 8 ms in", pace, true, true, true, 10, 8 * time.Millisecond, 2 * time.Millisecond},
		{"no pace ever, near the cap", 0, true, false, true, 10, maxSlow*periodTime - time.Millisecond, time.Millisecond},
		{"quiet, sampling pace unknown", pace, true, false, true, 0, 0, periodTime},
		{"past the limit", 1e3, false, false, true, 0, 10 * periodTime, pacerTick},
	}
	for _, tt := range tests {
		c := &controller{rateOff: tt.rateOff, rateOn: tt.rateOff / 3, slow: 3, on: tt.on, measured: tt.measured}
		if tt.unpaced {
			c.rateOn = 0
		}
		if got := time.Duration(c.wait(tt.work, int64(tt.elapsed))); got != tt.want {
			t.Errorf("%s: wait(%d, %v) = %v, want %v", tt.name, tt.work, tt.elapsed, got, tt.want)
		}
	}
	// A program that synchronizes too rarely for a pace is not polled:
	// its periods end at their time limit.
	sparse := &controller{measured: true, sparse: true}
	if got := time.Duration(sparse.wait(10, int64(time.Millisecond))); got != maxSlow*periodTime-time.Millisecond {
		t.Errorf("sparse, no pace: wait = %v, want the rest of the limit, %v", got, maxSlow*periodTime-time.Millisecond)
	}
}

// TestControllerLearnsPace checks that only measured periods with enough
// operations feed the pace and the slowdown.
func TestControllerLearnsPace(t *testing.T) {
	c := &controller{slow: 1}
	c.measured = true
	c.finish(periodWork, int64(time.Millisecond)) // 2e6 operations per second
	if c.rateOff != 2e6 {
		t.Fatalf("rateOff = %g after a measured period, want 2e6", c.rateOff)
	}
	c.measured = false
	c.finish(periodWork, int64(100*time.Millisecond))
	if c.rateOff != 2e6 {
		t.Errorf("rateOff = %g after an unmeasured period, want it unchanged", c.rateOff)
	}
	c.on, c.measured = true, true
	c.finish(periodWork, int64(4*time.Millisecond)) // 5e5 per second: 4x slower
	if c.slow != 4 {
		t.Errorf("slow = %g, want 4", c.slow)
	}
	if c.sparse {
		t.Errorf("sparse after measured periods of periodWork operations")
	}
	c.finish(periodWork/8, int64(time.Millisecond))
	if c.slow != 4 {
		t.Errorf("slow = %g after a period with too few operations to measure, want 4", c.slow)
	}
	if !c.sparse {
		t.Errorf("not sparse after a measured period with too few operations to measure")
	}
	c.finish(periodWork/2, int64(time.Millisecond))
	if c.sparse {
		t.Errorf("still sparse after a measured period with enough operations")
	}
}
