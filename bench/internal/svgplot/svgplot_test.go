package svgplot

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func TestWriteWellFormed(t *testing.T) {
	p := &Plot{
		Title: "a <title> & more",
		X:     Axis{Label: "rate", Min: 1e-4, Max: 1, Log: true, Ticks: []float64{1e-4, 1e-2, 1}, TickLabels: []string{"0", "1%", "100%"}},
		Y:     Axis{Label: "slowdown", Min: 1, Max: 100, Log: true, Ticks: LogTicks(1, 100)},
		Series: []Series{
			{Name: "w1", Points: []Point{{1e-4, 1.1}, {1e-2, 2}, {1, 50}}},
			{Name: "geomean", Points: []Point{{1e-4, 1.05}, {1, 40}}, Width: 3, Color: "black"},
		},
		HLines: []HLine{{Name: "go -race", Y: 8, Dash: "6 4"}},
		Bands:  []Band{{Name: "band", Lo: []Point{{1e-2, 1}, {1, 2}}, Hi: []Point{{1e-2, 4}, {1, 8}}}},
	}
	var b strings.Builder
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(strings.NewReader(b.String()))
	n := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, b.String())
		}
		if se, ok := tok.(xml.StartElement); ok {
			n++
			if n == 1 && se.Name.Local != "svg" {
				t.Fatalf("root element %q, want svg", se.Name.Local)
			}
		}
	}
	for _, want := range []string{"polyline", "polygon", "go -race", "a &lt;title&gt; &amp; more"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestWriteRejectsBadAxis(t *testing.T) {
	p := &Plot{X: Axis{Min: 0, Max: 1, Log: true}, Y: Axis{Min: 0, Max: 1}}
	if err := p.Write(io.Discard); err == nil {
		t.Fatal("log axis from 0 accepted")
	}
}

func TestLogTicks(t *testing.T) {
	got := LogTicks(1, 20)
	want := []float64{1, 2, 5, 10, 20}
	if len(got) != len(want) {
		t.Fatalf("LogTicks(1, 20) = %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("LogTicks(1, 20) = %v, want %v", got, want)
		}
	}
}

func TestNoLegend(t *testing.T) {
	p := &Plot{
		X: Axis{Min: 0, Max: 1, Ticks: []float64{0, 1}},
		Y: Axis{Min: 0, Max: 1, Ticks: []float64{0, 1}},
		Series: []Series{
			{Name: "shown", Points: []Point{{0, 0}, {1, 1}}},
			{Name: "hidden", Points: []Point{{0, 1}, {1, 0}}, NoLegend: true},
		},
	}
	var b strings.Builder
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, ">shown<") || strings.Contains(out, "hidden") {
		t.Errorf("legend: want the entry shown and no entry hidden:\n%s", out)
	}
	if n := strings.Count(out, "<polyline"); n != 2 {
		t.Errorf("%d lines drawn, want 2 (NoLegend still draws)", n)
	}
}
