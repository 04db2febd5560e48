package runtime

import "testing"

func TestParseSlots(t *testing.T) {
	tests := []struct {
		in   string
		want int
		errs int
	}{
		{"", defaultSlots, 0},
		{"slots=1", 1, 0},
		{"slots=256", 256, 0},
		{"slots=16777216", maxTid + 1, 0},
		{"slots=0", defaultSlots, 1},
		{"slots=16777217", defaultSlots, 1},
		{"slots=x", defaultSlots, 1},
	}
	for _, tt := range tests {
		o, errs := parseOptions(tt.in)
		if o.slots != tt.want || len(errs) != tt.errs {
			t.Errorf("parseOptions(%q): slots %d with %d errors, want %d with %d", tt.in, o.slots, len(errs), tt.want, tt.errs)
		}
	}
}
