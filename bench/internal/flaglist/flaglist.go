// Package flaglist parses the comma-separated lists that racegen's
// harnesses take as flag values: detection modes, sampling rates and
// overhead budgets.
package flaglist

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Choices returns the entries of the comma-separated list s, each of which
// must be one of choices, without repeats and in the order of choices.
// Blank entries are skipped, so that "" is the empty list.
func Choices(s string, choices []string) ([]string, error) {
	var got []string
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !slices.Contains(choices, f) {
			return nil, fmt.Errorf("%q: want %s", f, strings.Join(choices, ", "))
		}
		got = append(got, f)
	}
	var out []string
	for _, c := range choices {
		if slices.Contains(got, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Floats returns the numbers of the comma-separated list s in its order,
// each of which ok must accept; want names the numbers ok accepts, for
// the error. Blank entries are skipped, so that "" is the empty list.
func Floats(s string, ok func(float64) bool, want string) ([]float64, error) {
	var xs []float64
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || !ok(x) {
			return nil, fmt.Errorf("%q: want %s", f, want)
		}
		xs = append(xs, x)
	}
	return xs, nil
}
