package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// writeReport writes the markdown report of rs.
func writeReport(w io.Writer, rs *results) error {
	var b strings.Builder
	b.WriteString("# FRESA: races found against overhead\n\n")
	b.WriteString("Written by `make eval-fresa` (bench/fresa). Uniform dynamic sampling (Pacer) and FRESA's\n")
	b.WriteString("frequency-sensitive sampling ([runtime.md](runtime.md), \"FRESA\") side by side on racegen's\n")
	b.WriteString("evaluation programs. For each program, mode and rate: the overhead is the median wall time of\n")
	fmt.Fprintf(&b, "%d runs one at a time over the uninstrumented build's; the races are those reported (JSON\n", rs.Timing)
	fmt.Fprintf(&b, "reports naming both marked lines) over %d runs, two at a time.", rs.Runs)
	if rs.Profile != "" {
		fmt.Fprintf(&b, " *fresa+profile* starts from a\nprofile: %s.", rs.Profile)
	}
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "- command: `%s`\n- date: %s\n- machine: %s\n- Go: %s\n- racegen: %s\n\n", rs.Command, rs.Date, rs.Machine, rs.GoVersion, rs.Racegen)

	b.WriteString("## Within an overhead budget\n\n")
	b.WriteString("For each budget, the highest rate of the ladder whose overhead stays within it, and the\n")
	b.WriteString("distinct races found there; \"-\" where no rate does.\n\n")
	ms := rs.modesRun()
	// A ratio column for each pair of modes run whose first is meant to
	// find more than its second within a budget.
	var ratios [][2]string
	for _, r := range [][2]string{{modeFresa, modeUniform}, {modeProfile, modeFresa}} {
		if slices.Contains(ms, r[0]) && slices.Contains(ms, r[1]) {
			ratios = append(ratios, r)
		}
	}
	b.WriteString("| program | budget | " + strings.Join(ms, " | ") + " |")
	for _, r := range ratios {
		fmt.Fprintf(&b, " %s / %s |", r[0], r[1])
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(ms)+len(ratios)) + "\n")
	for _, p := range rs.Programs {
		for _, budget := range rs.Budgets {
			fmt.Fprintf(&b, "| %s | %gx |", p.Dir, budget)
			found := map[string]int{}
			for _, m := range ms {
				c := p.best(m, budget)
				if c == nil {
					b.WriteString(" - |")
					found[m] = -1
					continue
				}
				fmt.Fprintf(&b, " %d at %g (%.2fx) |", c.distinct(), c.Rate, c.overhead(p.Plain))
				found[m] = c.distinct()
			}
			for _, r := range ratios {
				// -1: no rate of the mode within the budget, which
				// finds nothing there.
				switch x, y := found[r[0]], found[r[1]]; {
				case y > 0 && x >= 0:
					fmt.Fprintf(&b, " %.2f |", float64(x)/float64(y))
				case x > 0:
					fmt.Fprintf(&b, " %d / %d |", x, max(y, 0))
				default:
					b.WriteString(" - |")
				}
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")

	for _, p := range rs.Programs {
		fmt.Fprintf(&b, "## %s\n\n", p.Dir)
		fmt.Fprintf(&b, "%d races marked; uninstrumented: %.2f s (median).\n\n", len(p.Races), p.Plain)
		b.WriteString("| mode | rate | overhead | distinct races | found per run | failed runs |\n")
		b.WriteString("|---|---|---|---|---|---|\n")
		for _, c := range p.Cells {
			fmt.Fprintf(&b, "| %s | %g | %.2fx | %d of %d | %.3f | %d |\n", c.Mode, c.Rate, c.overhead(p.Plain), c.distinct(), len(p.Races), c.perRun(len(p.Races)), c.Failed)
		}
		b.WriteString("\n")
		for _, c := range p.Cells {
			for _, u := range c.Unexpected {
				fmt.Fprintf(&b, "- %s rate %g, a report of no marked race: %s\n", c.Mode, c.Rate, u)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// best returns the cell of mode with the highest rate whose overhead is
// within budget, or nil.
func (p *programResult) best(mode string, budget float64) *cellResult {
	var best *cellResult
	for i := range p.Cells {
		c := &p.Cells[i]
		if c.Mode == mode && c.overhead(p.Plain) <= budget && (best == nil || c.Rate > best.Rate) {
			best = c
		}
	}
	return best
}

// modesRun returns the modes rs has runs of, in the order of modes.
func (rs *results) modesRun() []string {
	var ms []string
	for _, m := range modes {
		for _, p := range rs.Programs {
			if slices.ContainsFunc(p.Cells, func(c cellResult) bool { return c.Mode == m }) {
				ms = append(ms, m)
				break
			}
		}
	}
	return ms
}
