package main

import (
	"fmt"
	"io"
	"strings"
)

// rateOf returns the observed detection rate of race name in r.
func rateOf(r rateResult, name string) float64 {
	if r.Trials == 0 {
		return 0
	}
	return float64(r.Found[name]) / float64(r.Trials)
}

// meanRate returns the mean over races of the detection rate in r.
func meanRate(r rateResult, names []string) float64 {
	s := 0.0
	for _, n := range names {
		s += rateOf(r, n)
	}
	return s / float64(len(names))
}

// printSummary prints, per rate, each race's detection rate.
func printSummary(w io.Writer, rs *results) {
	fmt.Fprintf(w, "%-14s", "race")
	all := append([]rateResult{}, rs.Rates...)
	all = append(all, rs.Full)
	for _, r := range all {
		fmt.Fprintf(w, " %10s", fmt.Sprintf("r=%g", r.Rate))
	}
	fmt.Fprintln(w)
	for _, n := range rs.Races {
		fmt.Fprintf(w, "%-14s", n)
		for _, r := range all {
			if r.NA != "" {
				fmt.Fprintf(w, " %10s", "n/a")
				continue
			}
			mark := " "
			if r.Rate < 1 && !inBand(rateOf(r, n), r.Rate) {
				mark = "!"
			}
			fmt.Fprintf(w, " %9.4f%s", rateOf(r, n), mark)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%-14s", "mean")
	for _, r := range all {
		if r.NA != "" {
			fmt.Fprintf(w, " %10s", "n/a")
			continue
		}
		fmt.Fprintf(w, " %9.4f ", meanRate(r, rs.Races))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "(! outside [r/2, 2r]); rate 1: every race in every trial: %v\n", rs.fullOK())
}

// hasSweep reports whether rs holds the dynamic-mode rate sweep.
func (rs *results) hasSweep() bool {
	return rs.Full.Trials > 0 || rs.Full.NA != "" || len(rs.Rates) > 0
}

// writeReport writes the markdown of docs/eval-rate.md. plot names the
// sweep's SVG file, relative to the markdown file.
func writeReport(w io.Writer, rs *results, plot string) error {
	var b strings.Builder
	b.WriteString("# racegen proportionality: detection rate against sampling rate\n\n")
	b.WriteString("Written by `make eval-rate` (bench/evalrate). The evaluation program\n")
	b.WriteString("[testdata/evalrace](../testdata/evalrace/main.go) has ten races, each of whose two accesses\n")
	b.WriteString("runs exactly once per run, in different shapes. It is built with racegen at each rate and\n")
	b.WriteString("run many times; a race counts as detected in a trial when a JSON report\n")
	b.WriteString("(`RACEGEN_OPTIONS=format=json`) names both of its marked lines. Pacer's promise is that\n")
	b.WriteString("each race is found with probability equal to the rate r; racegen's acceptance band is\n")
	b.WriteString("[r/2, 2r] for every race and ±25% of r for the mean over races. The last section compares\n")
	b.WriteString("racegen's three detection modes on this program and on\n")
	b.WriteString("[testdata/evalrace/many](../testdata/evalrace/many/main.go), 36 races of nine shapes in four\n")
	b.WriteString("timings (see its package comment and [static.md](static.md)).\n\n")
	fmt.Fprintf(&b, "- command: `%s`\n- date: %s\n- machine: %s\n- Go: %s\n- racegen: %s\n\n", rs.Command, rs.Date, rs.Machine, rs.GoVersion, rs.Racegen)
	if !rs.hasSweep() {
		writeModes(&b, rs)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "![detection rate against sampling rate](%s)\n\n", plot)

	fmt.Fprintf(&b, "## Full detection (rate 1)\n\n")
	if rs.Full.NA != "" {
		fmt.Fprintf(&b, "n/a: %s\n\n", rs.Full.NA)
	} else {
		verdict := "every race was found in every trial"
		if !rs.fullOK() {
			verdict = "**not** every race was found in every trial"
		}
		fmt.Fprintf(&b, "%d trials (%s; RACEGEN_OPTIONS `%s`): %s.\n\n", rs.Full.Trials, rs.Full.How, rs.Full.Options, verdict)
		for _, n := range rs.Races {
			if k := rs.Full.Found[n]; k < rs.Full.Trials {
				fmt.Fprintf(&b, "- %s: found in %d of %d trials\n", n, k, rs.Full.Trials)
			}
		}
		writeProblems(&b, rs.Full)
		b.WriteString("\n")
	}

	b.WriteString("## Sampled\n\n")
	b.WriteString("Each cell: detection rate (trials in which the race was reported / trials), with its 95% Wilson interval;\n")
	b.WriteString("**bold** marks a rate outside [r/2, 2r].\n\n")
	b.WriteString("| race |")
	for _, r := range rs.Rates {
		fmt.Fprintf(&b, " r = %g |", r.Rate)
	}
	b.WriteString("\n|---|")
	for range rs.Rates {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, n := range rs.Races {
		fmt.Fprintf(&b, "| %s |", n)
		for _, r := range rs.Rates {
			if r.NA != "" {
				b.WriteString(" n/a |")
				continue
			}
			p := rateOf(r, n)
			lo, hi := wilson(r.Found[n], r.Trials)
			cell := fmt.Sprintf("%.4f [%.4f, %.4f]", p, lo, hi)
			if !inBand(p, r.Rate) {
				cell = "**" + cell + "**"
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	b.WriteString("| mean / r |")
	for _, r := range rs.Rates {
		if r.NA != "" {
			b.WriteString(" n/a |")
			continue
		}
		fmt.Fprintf(&b, " %.3f / %g = %.2f |", meanRate(r, rs.Races), r.Rate, meanRate(r, rs.Races)/r.Rate)
	}
	b.WriteString("\n| trials |")
	for _, r := range rs.Rates {
		fmt.Fprintf(&b, " %d |", r.Trials)
	}
	b.WriteString("\n\n")
	for _, r := range rs.Rates {
		if r.NA != "" {
			fmt.Fprintf(&b, "- r = %g: n/a: %s\n", r.Rate, r.NA)
			continue
		}
		fmt.Fprintf(&b, "- r = %g: %s; RACEGEN_OPTIONS `%s`", r.Rate, r.How, r.Options)
		if r.Identical {
			b.WriteString("; **every trial found the same set of races** (the runtime may need a per-trial seed)")
		}
		b.WriteString("\n")
		writeProblems(&b, r)
	}
	b.WriteString("\n")
	writeModes(&b, rs)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeProblems lists failed trials and reports of no marked race.
func writeProblems(b *strings.Builder, r rateResult) {
	if r.Failed > 0 {
		fmt.Fprintf(b, "  - %d trial(s) failed (exit status other than 0 or 66)\n", r.Failed)
	}
	for _, u := range r.Unexpected {
		fmt.Fprintf(b, "  - unexpected report: %s\n", u)
	}
}
