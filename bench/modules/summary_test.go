package main

import "testing"

func TestSummaryCells(t *testing.T) {
	for _, tt := range []struct {
		name         string
		s            summary
		passed, wall string
	}{
		{"not run", summary{}, "–", "–"},
		{"complete", summary{Ran: true, Pass: 9, Fail: 1, Pkgs: 2, Wall: 12.4}, "9/10", "12"},
		{"nothing ran", summary{Ran: true, Setup: "go: updates to go.mod needed", Wall: 0.3}, "no build", "–"},
		{"no package built", summary{Ran: true, Pkgs: 3, NotBuilt: 3, Wall: 0.5}, "no build", "–"},
		{"some built", summary{Ran: true, Pass: 4, Pkgs: 3, NotBuilt: 1, Wall: 2}, "4/4 (1 pkg no build)", "–"},
		{"timed out", summary{Ran: true, Pass: 43, Fail: 1, Other: 1, Pkgs: 2, PkgTimeout: 1, Wall: 1203.4}, "43/45 (timeout)", "≥1203"},
		{"killed", summary{Ran: true, Pass: 1, Pkgs: 1, Killed: true, Wall: 1320}, "1/1 (timeout)", "≥1320"},
	} {
		if got := tt.s.PassedCell(); got != tt.passed {
			t.Errorf("%s: PassedCell = %q, want %q", tt.name, got, tt.passed)
		}
		if got := tt.s.WallCell(); got != tt.wall {
			t.Errorf("%s: WallCell = %q, want %q", tt.name, got, tt.wall)
		}
	}
	base := summary{Ran: true, Pass: 1, Pkgs: 1, Wall: 2}
	if got := ratioCell(summary{Ran: true, Pass: 1, Pkgs: 1, Wall: 5}, base); got != "2.5×" {
		t.Errorf("ratio = %s, want 2.5×", got)
	}
	if got := ratioCell(summary{Ran: true, Pass: 1, Pkgs: 1, PkgTimeout: 1, Wall: 5}, base); got != "–" {
		t.Errorf("ratio of a run that timed out = %s, want –", got)
	}
}
