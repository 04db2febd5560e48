package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/racegen/racegen/bench/internal/flaglist"
)

// parseRates parses a comma-separated list of rates in (0, 1].
func parseRates(s string) ([]float64, error) {
	return flaglist.Floats(s, func(r float64) bool { return r > 0 && r <= 1 }, "a rate above 0, at most 1")
}

func fmtRate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// failureText returns what to show of a failed trial's stderr: its lines
// other than JSON reports, the first head and the last tail of them. A
// crash says what it is in its first line (fatal error: concurrent map
// read and map write, panic: ...) and where in its last.
func failureText(s string, head, tail int) string {
	var ls []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if !strings.HasPrefix(l, "{") {
			ls = append(ls, l)
		}
	}
	if len(ls) <= head+tail {
		return strings.Join(ls, "\n")
	}
	return strings.Join(ls[:head], "\n") + "\n\t...\n" + strings.Join(ls[len(ls)-tail:], "\n")
}

func sortStrings(s []string) []string {
	slices.Sort(s)
	return s
}

// foundString summarizes a rate's detections for the log.
func foundString(r rateResult, names []string) string {
	if r.NA != "" {
		return "n/a"
	}
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %d", n, r.Found[n]))
	}
	s := strings.Join(parts, ", ")
	if r.Failed > 0 {
		s += fmt.Sprintf("; %d failed", r.Failed)
	}
	if len(r.Unexpected) > 0 {
		s += fmt.Sprintf("; %d unexpected report kinds", len(r.Unexpected))
	}
	return s
}
