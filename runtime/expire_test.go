package runtime

import "testing"

func TestQuietPeriods(t *testing.T) {
	tests := []struct {
		limit int
		ends  string // s: a sampling period ended, q: one without
		want  string // x where end reports expiry
	}{
		{2, "sqqqq", "..x.."},
		{2, "sqsqqsqq", "....x..x"},
		{1, "qsqq", "x.x."},
		{0, "sqqqq", "....."},
		{3, "qqqsqq", "..x..."},
	}
	for _, tt := range tests {
		q := quietPeriods{limit: tt.limit}
		got := ""
		for _, c := range tt.ends {
			if q.end(c == 's') {
				got += "x"
			} else {
				got += "."
			}
		}
		if got != tt.want {
			t.Errorf("limit %d, ends %s: expiries %s, want %s", tt.limit, tt.ends, got, tt.want)
		}
	}
}

// TestExpire checks that an expiry forgets the history, and that one
// requested before a sampling period began does not forget what the
// period recorded.
func TestExpire(t *testing.T) {
	tests := []struct {
		name      string
		newPeriod bool // a sampling period begins after the request
		wantCells bool
	}{
		{"expired", false, false},
		{"period begun since the request", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := heapObject()
			setSampling(t, true)
			Write(a, 8, newSite())
			setSampling(t, false)
			requested := samplingPeriod.Load()
			if tt.newPeriod {
				switchSampling(true)
				Write(a, 8, newSite())
				switchSampling(false)
			}
			expire(requested)
			if got := cellsAt(a); got != tt.wantCells {
				t.Errorf("history kept = %v, want %v", got, tt.wantCells)
			}
		})
	}
}

func TestParseHistory(t *testing.T) {
	tests := []struct {
		in   string
		want int
		errs int
	}{
		{"", defaultHistory, 0},
		{"history=0", 0, 0},
		{"history=32", 32, 0},
		{"history=-1", defaultHistory, 1},
		{"history=x", defaultHistory, 1},
	}
	for _, tt := range tests {
		o, errs := parseOptions(tt.in)
		if o.history != tt.want || len(errs) != tt.errs {
			t.Errorf("parseOptions(%q): history %d with %d errors, want %d with %d", tt.in, o.history, len(errs), tt.want, tt.errs)
		}
	}
}
