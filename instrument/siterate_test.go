package instrument

import (
	"go/token"
	"math"
	"testing"
)

func TestStaticRates(t *testing.T) {
	counts := map[string]float64{"hot.go:1:1": 1e6, "warm.go:2:2": 1e3, "cold.go:3:3": 10}
	pos := func(file string, line int) token.Position {
		return token.Position{Filename: "/src/p/" + file, Line: line, Column: line}
	}
	for _, rate := range []float64{0.001, 0.01, 0.1, 0.5} {
		f := StaticRates(rate, counts)
		cost, total := 0.0, 0.0
		for key, n := range counts {
			var p token.Position
			switch key {
			case "hot.go:1:1":
				p = pos("hot.go", 1)
			case "warm.go:2:2":
				p = pos("warm.go", 2)
			default:
				p = pos("cold.go", 3)
			}
			cost += f(p) * n
			total += n
		}
		if want := rate * total; math.Abs(cost-want) > 0.001*want {
			t.Errorf("rate %g: expected cost %g executions, want %g", rate, cost, want)
		}
		hot, cold, unknown := f(pos("hot.go", 1)), f(pos("cold.go", 3)), f(pos("new.go", 9))
		if !(hot <= rate && cold >= rate && unknown >= cold) {
			t.Errorf("rate %g: hot %g, cold %g, unprofiled %g; want hot ≤ rate ≤ cold ≤ unprofiled", rate, hot, cold, unknown)
		}
	}
	if f := StaticRates(1, counts); f(pos("hot.go", 1)) != 1 {
		t.Errorf("rate 1 does not sample every site")
	}
	if f := StaticRates(0.1, nil); f(pos("hot.go", 1)) != 0.1 {
		t.Errorf("an empty profile does not keep the rate")
	}
}
