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
// race is expected to be found about 100 times, and at least 400. The
// races of a short program fall in one period, so they are found
// together or not at all, and the mean over races is no more precise
// than one race's rate: with 100 expected detections its standard error
// is 10% of r, and the ±25% band is 2.5 of them. (With 25, as before
// 26580d1 made the periods of short programs longer, it was 20%, and the
// mean at 3% missed the band by chance in the first run after it.)
func autoTrials(r float64) int {
	return max(400, int(math.Ceil(100/r)))
}
