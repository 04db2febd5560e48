package main

import (
	"fmt"
	"io"
	"math"

	"github.com/racegen/racegen/bench/internal/svgplot"
)

// zeroAt is where rate 0 is drawn on the logarithmic rate axis: one
// decade below the smallest positive rate, labelled "0".
func zeroAt(rates []float64) float64 {
	lo := 1.0
	for _, r := range rates {
		if r > 0 && r < lo {
			lo = r
		}
	}
	return lo / 10
}

// rateConfigs returns the racegen configurations in rs in order of rate.
func (rs *results) rateConfigs() []config {
	var cs []config
	for _, c := range rs.Configs {
		if c.Kind == racegen {
			cs = append(cs, c)
		}
	}
	return cs
}

// writePlot writes an SVG plot of the ratio chosen by f (wallOf or
// rssOf) against racegen's sampling rate: one line per workload, the
// geometric mean in bold, and go test -race's geometric mean as a
// horizontal reference, in the manner of Pacer's Figures 8 and 9.
func writePlot(w io.Writer, rs *results, f func(run) float64, title, ylabel string) error {
	cs := rs.rateConfigs()
	var rates []float64
	for _, c := range cs {
		rates = append(rates, c.Rate)
	}
	z := zeroAt(rates)
	xOf := func(r float64) float64 {
		if r == 0 {
			return z
		}
		return r
	}
	lo, hi := 1.0, 2.0
	note := func(v float64) {
		if v > 0 && !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	p := &svgplot.Plot{Title: title}
	for _, wl := range rs.Workloads {
		s := svgplot.Series{Name: wl.Name, Width: 1}
		for _, c := range cs {
			sm := ratios(rs.cell(wl.Name, c.Name), rs.cell(wl.Name, "base"), f)
			if sm.ok() {
				s.Points = append(s.Points, svgplot.Point{X: xOf(c.Rate), Y: sm.Med})
				note(sm.Med)
			}
		}
		if len(s.Points) > 0 {
			p.Series = append(p.Series, s)
		}
	}
	g := svgplot.Series{Name: "geomean", Width: 3.5, Color: "black"}
	for _, c := range cs {
		var ss []summary
		for _, wl := range rs.Workloads {
			ss = append(ss, ratios(rs.cell(wl.Name, c.Name), rs.cell(wl.Name, "base"), f))
		}
		if gs := geoOver(ss); gs.N > 0 {
			g.Points = append(g.Points, svgplot.Point{X: xOf(c.Rate), Y: gs.Med})
			note(gs.Med)
		}
	}
	p.Series = append(p.Series, g)
	var rss []summary
	for _, wl := range rs.Workloads {
		rss = append(rss, ratios(rs.cell(wl.Name, "race"), rs.cell(wl.Name, "base"), f))
	}
	if gr := geoOver(rss); gr.N > 0 {
		p.HLines = append(p.HLines, svgplot.HLine{Name: fmt.Sprintf("go -race geomean %.2fx", gr.Med), Y: gr.Med, Color: "#d62728", Dash: "8 5"})
		note(gr.Med)
	}
	xt := []float64{z}
	xl := []string{"0"}
	for _, r := range rates {
		if r > 0 {
			xt = append(xt, r)
			xl = append(xl, fmt.Sprintf("%g%%", r*100))
		}
	}
	p.X = svgplot.Axis{Label: "racegen sampling rate (log scale)", Min: z / 1.5, Max: 1.5, Log: true, Ticks: xt, TickLabels: xl}
	ylo, yhi := lo/1.1, hi*1.1
	p.Y = svgplot.Axis{Label: ylabel + " (log scale)", Min: ylo, Max: yhi, Log: true, Ticks: svgplot.LogTicks(ylo, yhi)}
	return p.Write(w)
}
