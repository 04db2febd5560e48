package main

import (
	"math"
	"slices"

	"github.com/racegen/racegen/bench/internal/stats"
)

// A summary is a ratio to the baseline over a cell's repetitions.
type summary struct {
	N              int     // repetitions that entered the ratio
	Med, Min, Max  float64 // of the per-repetition ratios
	AtLeast        bool    // some ratio is a lower bound (a run timed out)
	Value          float64 // median of the cell's own values (seconds or bytes)
	ValueIsAtLeast bool
}

// ok reports whether s holds any ratio.
func (s summary) ok() bool { return s.N > 0 }

// ratios pairs each usable run of c with the baseline run of the same
// repetition and summarizes c/base of the measure f. Runs were made
// round-robin, so the pair shares the machine's conditions as closely as
// the harness can arrange.
func ratios(c, base *cell, f func(run) float64) summary {
	var s summary
	if c == nil || base == nil {
		return s
	}
	byRep := map[int]run{}
	for _, r := range base.Runs {
		if r.usable() {
			byRep[r.Rep] = r
		}
	}
	var rs, vals []float64
	for _, r := range c.Runs {
		b, ok := byRep[r.Rep]
		if !r.usable() || ok && r.incomplete(b) {
			continue
		}
		vals = append(vals, f(r))
		if r.Status == statusTimeout {
			s.ValueIsAtLeast = true
		}
		if !ok || f(b) <= 0 {
			continue
		}
		rs = append(rs, f(r)/f(b))
		if r.Status == statusTimeout {
			s.AtLeast = true
		}
	}
	if len(vals) > 0 {
		s.Value = stats.Median(vals)
	}
	if len(rs) == 0 {
		return s
	}
	s.N = len(rs)
	s.Med = stats.Median(rs)
	s.Min = slices.Min(rs)
	s.Max = slices.Max(rs)
	return s
}

// geomean returns the geometric mean of xs, or NaN if xs is empty.
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range xs {
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs)))
}

// A geoSummary is the geometric mean, over workloads, of their medians,
// minimums and maximums for one configuration.
type geoSummary struct {
	Med, Min, Max float64
	N             int // workloads included
	AtLeast       bool
}

// geoOver combines per-workload summaries.
func geoOver(ss []summary) geoSummary {
	var med, lo, hi []float64
	g := geoSummary{}
	for _, s := range ss {
		if !s.ok() {
			continue
		}
		med = append(med, s.Med)
		lo = append(lo, s.Min)
		hi = append(hi, s.Max)
		g.AtLeast = g.AtLeast || s.AtLeast
	}
	g.N = len(med)
	g.Med, g.Min, g.Max = geomean(med), geomean(lo), geomean(hi)
	return g
}

func wallOf(r run) float64 { return r.Wall }
func rssOf(r run) float64  { return float64(r.RSS) }

// summarize returns, for configuration c, the per-workload time and
// memory summaries and their geometric means.
func (rs *results) summarize(c string) (times, mems []summary, gt, gm geoSummary) {
	for _, w := range rs.Workloads {
		b := rs.cell(w.Name, "base")
		x := rs.cell(w.Name, c)
		times = append(times, ratios(x, b, wallOf))
		mems = append(mems, ratios(x, b, rssOf))
	}
	return times, mems, geoOver(times), geoOver(mems)
}
