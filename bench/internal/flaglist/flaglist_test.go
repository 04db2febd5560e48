package flaglist

import (
	"slices"
	"testing"
)

func TestChoices(t *testing.T) {
	modes := []string{"dynamic", "static", "collide"}
	for _, tc := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"dynamic,static,collide", modes, true},
		{"collide, dynamic", []string{"dynamic", "collide"}, true}, // the choices' order
		{" static , static", []string{"static"}, true},
		{"", nil, true},
		{" , ", nil, true},
		{"static,pacer", nil, false},
		{"Static", nil, false},
	} {
		got, err := Choices(tc.in, modes)
		if (err == nil) != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("Choices(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestFloats(t *testing.T) {
	rate := func(x float64) bool { return x >= 0 && x <= 1 }
	for _, tc := range []struct {
		in   string
		want []float64
		ok   bool
	}{
		{"0, 0.001,1", []float64{0, 0.001, 1}, true},
		{"0.1,0.01", []float64{0.1, 0.01}, true}, // the list's order
		{"", nil, true},
		{"0.5,,", []float64{0.5}, true},
		{"1.5", nil, false},
		{"-0.1", nil, false},
		{"NaN", nil, false},
		{"x", nil, false},
	} {
		got, err := Floats(tc.in, rate, "a number from 0 to 1")
		if (err == nil) != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("Floats(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
