package instrument

import (
	"go/token"
	"path/filepath"
	"strconv"
)

// A static build samples sites, and a sampled site costs its watchpoint
// hook each time it runs, an unsampled one nothing. Sampling every site
// at the same rate spends most of the budget on the hottest sites, whose
// races are usually found first (FRESA's observation, seeds/004). Given
// how often each site ran (a FRESA profile), StaticRates spreads the
// same expected cost so that each site costs at most the same number of
// executions: site i, run f_i times, is sampled with probability
// min(1, c/f_i), with c chosen so that
//
//	Σ min(f_i, c) = rate · Σ f_i,
//
// the cost of sampling every site at rate. Cold sites are then sampled
// more often than rate, hot ones less. A site the profile does not name
// counts as run once.

// StaticRates returns the per-site rates for a static build at rate
// from counts, the executions of each site by its position,
// "FILE:LINE:COL" with FILE a base name, summed over a profile's runs.
func StaticRates(rate float64, counts map[string]float64) func(pos token.Position) float64 {
	var total, hi float64
	for _, f := range counts {
		total += f
		hi = max(hi, f)
	}
	if rate >= 1 || total == 0 {
		return func(token.Position) float64 { return rate }
	}
	budget := rate * total
	cost := func(c float64) float64 {
		s := 0.0
		for _, f := range counts {
			s += min(f, c)
		}
		return s
	}
	lo, up := 0.0, hi
	for range 100 {
		mid := (lo + up) / 2
		if cost(mid) < budget {
			lo = mid
		} else {
			up = mid
		}
	}
	c := lo
	return func(pos token.Position) float64 {
		f := counts[SiteKey(pos)]
		return min(1, c/max(f, 1))
	}
}

// SiteKey names the site at pos as StaticRates's counts do.
func SiteKey(pos token.Position) string {
	return filepath.Base(pos.Filename) + ":" + strconv.Itoa(pos.Line) + ":" + strconv.Itoa(pos.Column)
}
