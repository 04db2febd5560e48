package runtime

import (
	"testing"
	"time"
)

// TestWatchCoolBackoff: a site that needs a cooldown again before one of
// its watchpoints ran its course cools down twice as long as the time
// before, up to 2^maxCoolLevel time limits, and a watchpoint that ran
// its course halves the next one.
func TestWatchCoolBackoff(t *testing.T) {
	const limit = int64(time.Millisecond)
	old := watchLimit.Swap(limit)
	defer watchLimit.Store(old)
	tests := []struct {
		name  string
		steps string // c: coolSite, r: relaxSite
		want  int64  // the last cooldown, in time limits
	}{
		{"first", "c", 1},
		{"second", "cc", 2},
		{"third", "ccc", 4},
		{"relaxed", "cccr" + "c", 4},
		{"relaxed twice", "cccrr" + "c", 2},
		{"relaxed at zero", "crr" + "c", 1},
		{"capped", "cccccccccccccccc", 1 << maxCoolLevel},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := uint64(1000+k) * numCool // one entry for every test
			c := &coolSites[site%numCool]
			c.site.Store(0)
			c.last.Store(0)
			c.level.Store(0)
			for _, s := range tt.steps {
				if s == 'c' {
					coolSite(site, 0)
				} else {
					relaxSite(site)
				}
			}
			if got := c.until.Load() / limit; got != tt.want {
				t.Errorf("cooldown %d time limits, want %d", got, tt.want)
			}
			if !cooling(site) {
				t.Error("the site is not cooling down")
			}
			c.site.Store(0)
		})
	}
}
