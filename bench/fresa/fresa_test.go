package main

import (
	"slices"
	"testing"
)

func TestParseModes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // nil: an error
	}{
		{"uniform,fresa,fresa+profile", modes},
		{"fresa, uniform", []string{modeUniform, modeFresa}}, // report order, spaces dropped
		{"fresa,fresa", []string{modeFresa}},
		{"fresa+profile", []string{modeProfile}},
		{"dynamic", nil},
		{" , ", nil},
	} {
		got, err := parseModes(tc.in)
		if tc.want == nil {
			if err == nil {
				t.Errorf("parseModes(%q) = %q, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("parseModes(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
