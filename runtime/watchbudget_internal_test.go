package runtime

import "testing"

func TestWatchBudgetOption(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		errs int
	}{
		{"", defaultWatchBudget, 0},
		{"watch_budget=0.02", 0.02, 0},
		{"watch_budget=0", 0, 0},
		{"watch_budget=1.5", defaultWatchBudget, 1},
		{"watch_budget=-1", defaultWatchBudget, 1},
		{"watch_budget=x", defaultWatchBudget, 1},
	}
	for _, tt := range tests {
		o, errs := parseOptions(tt.in)
		if o.watchBudget != tt.want || len(errs) != tt.errs {
			t.Errorf("parseOptions(%q): watch_budget %v with %d errors, want %v with %d", tt.in, o.watchBudget, len(errs), tt.want, tt.errs)
		}
	}
}

// TestWatchBudgetRest: a slot freed while the debt of armings and
// disarmings is within the burst, the budget of burstWindow, arms again
// at once; beyond it, the slot rests until the program, paying off
// watch_budget of each nanosecond, has brought the debt back within it.
func TestWatchBudgetRest(t *testing.T) {
	oldBudget, oldDebt, oldAt := opts.watchBudget, armDebt.debt, armDebt.at
	defer func() { opts.watchBudget, armDebt.debt, armDebt.at = oldBudget, oldDebt, oldAt }()
	const ms = millisecond
	tests := []struct {
		name   string
		budget float64
		debt   int64 // charged at time 1000ms
		free   int64 // when the slot is freed, in ms
		rest   int64 // how long it rests, in ms
	}{
		{"within the burst", 0.01, 4 * ms, 1000, 0}, // 1% of burstWindow
		{"beyond it", 0.01, 5 * ms, 1000, 100},
		{"paid off in part", 0.01, 5 * ms, 1050, 50},
		{"paid off", 0.01, 5 * ms, 1200, 0},
		{"a larger budget, a larger burst", 0.5, 200 * ms, 1000, 0},
		{"beyond that one", 0.5, 210 * ms, 1000, 20},
		{"no bound", 0, 1000 * ms, 1000, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts.watchBudget = tt.budget
			armDebt.debt, armDebt.at = 0, 0
			chargeArming(tt.debt, 1000*ms)
			free := tt.free * ms
			if got := (armingRest(free) - free) / ms; got != tt.rest {
				t.Errorf("rests %dms, want %dms", got, tt.rest)
			}
		})
	}
}
