package main

import (
	"fmt"
	"io"
	"math"
	"slices"

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

// rateConfigs returns the configurations in rs of mode, as budgetMode
// names them, in the order measured (increasing rate).
func (rs *results) rateConfigs(mode string) []config {
	var cs []config
	for _, c := range rs.Configs {
		if budgetMode(c) == mode {
			cs = append(cs, c)
		}
	}
	return cs
}

// modeStyle is how a mode's lines are drawn: its workloads' lines share
// the workload's colour and the mode's dash pattern; its geometric mean is
// a bold line in the mode's colour.
var modeStyle = map[string]struct{ dash, color string }{
	modeDynamic: {"", "black"},
	modeStatic:  {"7 4", "#006d2c"},
	modeCollide: {"2 3", "#6a3d9a"},
	modeFresa:   {"9 3 2 3", "#d95f02"},
	// FRESA from a profile: FRESA's colour, a shorter dash.
	modeFresaProfile: {"4 2", "#d95f02"},
	// Static mode from a profile: static's colour, FRESA's dash.
	modeStaticProfile: {"9 3 2 3", "#006d2c"},
}

// writePlot writes an SVG plot of the ratio chosen by f (wallOf or
// rssOf) against racegen's sampling rate, in the manner of Pacer's
// Figures 8 and 9: one thin line per workload and mode, the geometric
// mean of each mode in bold, and go test -race's geometric mean as a
// horizontal reference. Modes differ in dash pattern, workloads in
// colour; the workloads are named in the legend once.
func writePlot(w io.Writer, rs *results, f func(run) float64, title, ylabel string) error {
	var rates []float64
	var modes []string
	for _, m := range allModes {
		cs := rs.rateConfigs(m)
		if len(cs) > 0 {
			modes = append(modes, m)
		}
		for _, c := range cs {
			if !slices.Contains(rates, c.Rate) {
				rates = append(rates, c.Rate)
			}
		}
	}
	slices.Sort(rates)
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
	var geos []svgplot.Series
	for k, m := range modes {
		cs := rs.rateConfigs(m)
		st := modeStyle[m]
		if k > 0 {
			// A legend entry for the mode's dash pattern.
			p.Series = append(p.Series, svgplot.Series{Name: "workloads, " + m + " mode", Color: "#888888", Width: 1, Dash: st.dash})
		}
		for i, wl := range rs.Workloads {
			s := svgplot.Series{Name: wl.Name, Width: 1, Dash: st.dash, Color: svgplot.Palette[i%len(svgplot.Palette)], NoLegend: k > 0}
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
		name := "geomean, " + m
		if m != modeDynamic && len(cs) > 0 {
			name += fmt.Sprintf(" (seed %d)", cs[0].Seed)
		}
		g := svgplot.Series{Name: name, Width: 3.5, Color: st.color, Dash: st.dash}
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
		geos = append(geos, g)
	}
	p.Series = append(p.Series, geos...)
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
