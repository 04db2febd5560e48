package main

import "math"

// wilson returns the 95% Wilson score interval for k successes in n
// trials.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	mid := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half)
}

// inBand reports whether an observed rate p lies within [r/2, 2r].
func inBand(p, r float64) bool { return p >= r/2 && p <= 2*r }

// autoTrials is the default number of trials at rate r: enough that each
// race is expected to be found about 25 times, and at least 300.
func autoTrials(r float64) int {
	return max(300, int(math.Ceil(25/r)))
}
