package instrument

import (
	"strings"
	"testing"
)

func TestParseMode(t *testing.T) {
	tests := []struct {
		name string
		want Mode
		ok   bool
	}{
		{"dynamic", Dynamic, true},
		{"static", Static, true},
		{"collide", Collide, true},
		{"", 0, false},
		{"Dynamic", 0, false},
		{"fast", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseMode(tt.name)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseMode(%q) = %v, %v; want %v, ok %v", tt.name, got, err, tt.want, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "want dynamic, static or collide") {
			t.Errorf("ParseMode(%q): error %q does not list the modes", tt.name, err)
		}
	}
}

// TestModeNames checks that every Mode's name parses back to it and that
// the zero Config rewrites for Dynamic.
func TestModeNames(t *testing.T) {
	if len(Modes()) != 3 {
		t.Fatalf("Modes() = %v, want dynamic, static and collide", Modes())
	}
	seen := make(map[string]bool)
	for _, m := range Modes() {
		s := m.String()
		if seen[s] {
			t.Errorf("two modes are named %q", s)
		}
		seen[s] = true
		if got, err := ParseMode(s); err != nil || got != m {
			t.Errorf("ParseMode(%v.String()) = %v, %v", int(m), got, err)
		}
	}
	if (Config{}).Mode != Dynamic {
		t.Errorf("the zero Config's mode is %v, want dynamic", (Config{}).Mode)
	}
	if s := Mode(len(Modes())).String(); s != "Mode(3)" {
		t.Errorf("an unknown mode prints as %q", s)
	}
}
