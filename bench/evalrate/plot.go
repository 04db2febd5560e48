package main

import (
	"io"

	"github.com/racegen/racegen/bench/internal/svgplot"
)

// writePlot draws each race's detection rate against the sampling rate
// on log-log axes, with the ideal y = r and the band [r/2, 2r], in the
// manner of Pacer's Figures 3-5.
func writePlot(w io.Writer, rs *results) error {
	all := append([]rateResult{}, rs.Rates...)
	if rs.Full.NA == "" && rs.Full.Trials > 0 {
		all = append(all, rs.Full)
	}
	var xs []float64
	for _, r := range all {
		if r.NA == "" {
			xs = append(xs, r.Rate)
		}
	}
	lo, hi := 0.01, 1.0
	for _, x := range xs {
		lo = min(lo, x)
	}
	p := &svgplot.Plot{
		Title: "Detection rate of each evaluation race against sampling rate",
		X:     svgplot.Axis{Label: "sampling rate r (log scale)", Min: lo / 1.5, Max: hi * 1.5, Log: true, Ticks: xs},
		Y:     svgplot.Axis{Label: "detection rate (log scale)", Min: lo / 4, Max: hi * 1.5, Log: true, Ticks: svgplot.LogTicks(lo/4, hi)},
	}
	ideal := svgplot.Series{Name: "ideal y = r", Color: "black", Dash: "6 4", Width: 1.5}
	band := svgplot.Band{Name: "[r/2, 2r]", Color: "#2ca02c"}
	for _, x := range []float64{lo / 1.5, hi * 1.5} {
		ideal.Points = append(ideal.Points, svgplot.Point{X: x, Y: x})
		band.Lo = append(band.Lo, svgplot.Point{X: x, Y: x / 2})
		band.Hi = append(band.Hi, svgplot.Point{X: x, Y: x * 2})
	}
	p.Bands = []svgplot.Band{band}
	for _, n := range rs.Races {
		s := svgplot.Series{Name: n, Width: 0.8}
		for _, r := range all {
			if r.NA == "" {
				s.Points = append(s.Points, svgplot.Point{X: r.Rate, Y: rateOf(r, n)})
			}
		}
		p.Series = append(p.Series, s)
	}
	mean := svgplot.Series{Name: "mean over races", Color: "black", Width: 3}
	for _, r := range all {
		if r.NA == "" {
			mean.Points = append(mean.Points, svgplot.Point{X: r.Rate, Y: meanRate(r, rs.Races)})
		}
	}
	p.Series = append(p.Series, ideal, mean)
	return p.Write(w)
}
