// Package stats holds the summary statistics that more than one of
// racegen's harnesses reports.
package stats

import "slices"

// Median returns the median of xs, which must not be empty: the middle
// value, or the mean of the two middle values of an even count. xs is
// left as it was.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
