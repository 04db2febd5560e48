// Package svgplot draws small line plots as standalone SVG documents,
// with linear or logarithmic axes, for racegen's benchmark reports. It
// knows only what those reports need: lines with markers, horizontal
// reference lines, shaded bands between two curves, and a legend.
package svgplot

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// Axis describes one axis of a plot.
type Axis struct {
	Label string
	Min   float64 // data value at the low end of the axis
	Max   float64 // data value at the high end of the axis
	Log   bool    // logarithmic (base 10) scale; Min and Max must be > 0
	// Ticks are the data values to mark; TickLabels, if not nil, names
	// them (otherwise they are printed with %g).
	Ticks      []float64
	TickLabels []string
}

// frac returns where v falls along the axis, 0 at Min and 1 at Max.
func (a *Axis) frac(v float64) float64 {
	if a.Log {
		return (math.Log10(v) - math.Log10(a.Min)) / (math.Log10(a.Max) - math.Log10(a.Min))
	}
	return (v - a.Min) / (a.Max - a.Min)
}

// Point is one data point.
type Point struct{ X, Y float64 }

// Series is a line through points, drawn with markers at each point.
type Series struct {
	Name   string
	Points []Point
	Color  string  // CSS colour; chosen from a palette if empty
	Width  float64 // stroke width; 1.5 if zero
	Dash   string  // SVG stroke-dasharray, empty for a solid line
	NoLine bool    // markers only
	// NoLegend leaves the series out of the legend, for a family of
	// lines that one legend entry (a series without points) explains.
	NoLegend bool
}

// HLine is a horizontal reference line at data value Y.
type HLine struct {
	Name  string
	Y     float64
	Color string
	Dash  string
}

// Band is a shaded region between the curves Lo and Hi, which must have
// the same X values in increasing order.
type Band struct {
	Name   string
	Lo, Hi []Point
	Color  string
}

// Plot is a whole figure.
type Plot struct {
	Title  string
	X, Y   Axis
	Series []Series
	HLines []HLine
	Bands  []Band
	Width  int // pixels; 720 if zero
	Height int // pixels; 480 if zero
}

// Palette is the sequence of colours given to series without one.
var Palette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
	"#8c6d31", "#843c39", "#7b4173",
}

// geometry of the plotting area inside the figure.
const (
	marginLeft   = 70
	marginRight  = 210 // room for the legend
	marginTop    = 40
	marginBottom = 55
)

// Write writes p as an SVG document to w.
func (p *Plot) Write(w io.Writer) error {
	if err := p.check(); err != nil {
		return err
	}
	width, height := p.Width, p.Height
	if width == 0 {
		width = 720
	}
	if height == 0 {
		height = 480
	}
	pw := float64(width - marginLeft - marginRight)
	ph := float64(height - marginTop - marginBottom)
	px := func(x float64) float64 { return marginLeft + clamp(p.X.frac(x))*pw }
	py := func(y float64) float64 { return marginTop + (1-clamp(p.Y.frac(y)))*ph }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" text-anchor="middle">%s</text>`+"\n", marginLeft+int(pw)/2, esc(p.Title))

	for _, band := range p.Bands {
		var pts []string
		for _, q := range band.Lo {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(q.X), py(q.Y)))
		}
		for i := len(band.Hi) - 1; i >= 0; i-- {
			q := band.Hi[i]
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(q.X), py(q.Y)))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.18" stroke="none"/>`+"\n", strings.Join(pts, " "), colorOr(band.Color, "#888888"))
	}

	// Axes, ticks and grid.
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%.1f" fill="none" stroke="black"/>`+"\n", marginLeft, marginTop, pw, ph)
	for i, t := range p.X.Ticks {
		x := px(t)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#dddddd"/>`+"\n", x, marginTop, x, marginTop+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, marginTop+ph+16, esc(tickLabel(&p.X, i)))
	}
	for i, t := range p.Y.Ticks {
		y := py(t)
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#dddddd"/>`+"\n", marginLeft, y, marginLeft+pw, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", marginLeft-6, y+4, esc(tickLabel(&p.Y, i)))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", marginLeft+pw/2, height-12, esc(p.X.Label))
	fmt.Fprintf(&b, `<text x="18" y="%.1f" text-anchor="middle" transform="rotate(-90 18 %.1f)">%s</text>`+"\n", marginTop+ph/2, marginTop+ph/2, esc(p.Y.Label))

	var legend []legendEntry
	for _, band := range p.Bands {
		legend = append(legend, legendEntry{band.Name, colorOr(band.Color, "#888888"), "", 0, true})
	}
	for _, h := range p.HLines {
		y := py(h.Y)
		c := colorOr(h.Color, "black")
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"%s/>`+"\n", marginLeft, y, marginLeft+pw, y, c, dashAttr(h.Dash))
		legend = append(legend, legendEntry{h.Name, c, h.Dash, 1.5, false})
	}
	for i, s := range p.Series {
		c := colorOr(s.Color, Palette[i%len(Palette)])
		wd := s.Width
		if wd == 0 {
			wd = 1.5
		}
		if !s.NoLine && len(s.Points) > 1 {
			var pts []string
			for _, q := range s.Points {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(q.X), py(q.Y)))
			}
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%g"%s/>`+"\n", strings.Join(pts, " "), c, wd, dashAttr(s.Dash))
		}
		for _, q := range s.Points {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%g" fill="%s"/>`+"\n", px(q.X), py(q.Y), 1.5+wd, c)
		}
		if !s.NoLegend {
			legend = append(legend, legendEntry{s.Name, c, s.Dash, wd, false})
		}
	}
	for i, e := range legend {
		x := float64(width - marginRight + 15)
		y := float64(marginTop + 8 + 18*i)
		if e.box {
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="24" height="10" fill="%s" fill-opacity="0.18"/>`+"\n", x, y-5, e.color)
		} else {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%g"%s/>`+"\n", x, y, x+24, y, e.color, e.width, dashAttr(e.dash))
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", x+30, y+4, esc(e.name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

type legendEntry struct {
	name, color, dash string
	width             float64
	box               bool
}

func (p *Plot) check() error {
	for _, a := range []*Axis{&p.X, &p.Y} {
		if !(a.Max > a.Min) {
			return fmt.Errorf("svgplot: axis %q: max %v not above min %v", a.Label, a.Max, a.Min)
		}
		if a.Log && a.Min <= 0 {
			return fmt.Errorf("svgplot: axis %q: log scale needs min > 0, have %v", a.Label, a.Min)
		}
		if a.TickLabels != nil && len(a.TickLabels) != len(a.Ticks) {
			return fmt.Errorf("svgplot: axis %q: %d tick labels for %d ticks", a.Label, len(a.TickLabels), len(a.Ticks))
		}
	}
	for _, band := range p.Bands {
		if len(band.Lo) != len(band.Hi) {
			return fmt.Errorf("svgplot: band %q: %d low points, %d high", band.Name, len(band.Lo), len(band.Hi))
		}
	}
	return nil
}

func tickLabel(a *Axis, i int) string {
	if a.TickLabels != nil {
		return a.TickLabels[i]
	}
	return fmt.Sprintf("%g", a.Ticks[i])
}

// clamp keeps points inside the plotting area; NaN goes to the low edge.
func clamp(f float64) float64 {
	if !(f >= 0) {
		return 0
	}
	return min(f, 1)
}

func colorOr(c, def string) string {
	if c == "" {
		return def
	}
	return c
}

func dashAttr(d string) string {
	if d == "" {
		return ""
	}
	return fmt.Sprintf(` stroke-dasharray="%s"`, d)
}

func esc(s string) string { return html.EscapeString(s) }

// LogTicks returns the values 1, 2 and 5 times powers of ten between lo
// and hi inclusive, for a logarithmic axis.
func LogTicks(lo, hi float64) []float64 {
	var ts []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				ts = append(ts, v)
			}
		}
	}
	return ts
}
