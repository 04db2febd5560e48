package main

import (
	"fmt"
	"io"
	"strings"
)

// writeReport writes rs as the markdown of docs/bench.md. plots names
// the SVG files, relative to the markdown file, to link.
func writeReport(w io.Writer, rs *results, plots []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# racegen cost: slowdown and memory against the uninstrumented build\n\n")
	fmt.Fprintf(&b, "Written by `make bench` (bench/driver). Each workload's test binary is built once per\n")
	fmt.Fprintf(&b, "configuration and the binaries are run round-robin, %d repetition(s); each run's wall time\n", rs.Reps)
	fmt.Fprintf(&b, "(process start to exit) and peak RSS (getrusage maxrss) is divided by the uninstrumented\n")
	fmt.Fprintf(&b, "run of the same repetition. Cells give the median ratio [min, max] over repetitions; the\n")
	fmt.Fprintf(&b, "geomean rows are the geometric means over workloads of those medians [mins, maxes].\n")
	fmt.Fprintf(&b, "A run that reported races is timed like any other (runs column: \"races\"), but one that\n")
	fmt.Fprintf(&b, "finished fewer benchmarks than the uninstrumented run (\"incomplete\": a benchmark in which a\n")
	fmt.Fprintf(&b, "race was reported fails and prints no result, and stops early if that was in its first,\n")
	fmt.Fprintf(&b, "one-iteration run) is left out of the ratios, as are failed runs.\n\n")
	fmt.Fprintf(&b, "- command: `%s`\n", rs.Command)
	fmt.Fprintf(&b, "- date: %s\n", rs.Date)
	fmt.Fprintf(&b, "- machine: %s\n", rs.Machine)
	fmt.Fprintf(&b, "- Go: %s\n", rs.GoVersion)
	fmt.Fprintf(&b, "- racegen: %s\n", rs.Racegen)
	fmt.Fprintf(&b, "- per-run limit: %gs (a run killed at the limit counts as the limit, shown as `>`, and is not repeated)\n", rs.Timeout)
	if ms := rs.modesLine(); ms != "" {
		fmt.Fprintf(&b, "- racegen modes: %s\n", ms)
	}
	if rs.Profile != nil && len(rs.rateConfigs(modeFresaProfile)) > 0 {
		fmt.Fprintf(&b, "- FRESA \"from a profile\": each timed run starts from %s\n", rs.Profile)
	}
	if rs.Profile != nil && len(rs.rateConfigs(modeStaticProfile)) > 0 {
		fmt.Fprintf(&b, "- static \"from a profile\": built with racegen -profile from the sum of %d untimed runs of a racegen -fresa -rate=%s build of the workload (RACEGEN_OPTIONS=profile_out=...), merged by racegen merge -profiles\n", rs.Profile.Runs, fmtRate(rs.Profile.Rate))
	}
	if sw := rs.softWatchCells(); len(sw) > 0 {
		fmt.Fprintf(&b, "- software watchpoints (perf_event_open failed at run time) in: %s\n", strings.Join(sw, ", "))
	}
	b.WriteString("\n")
	if rs.hasStaticModes() {
		b.WriteString("racegen's modes: `dynamic` samples time (Pacer's periods over FastTrack; every non-local\n")
		b.WriteString("access carries a check); `static` samples access sites at build time, from the seed given,\n")
		b.WriteString("and only those carry a hook, which arms a watchpoint (CRSampler's clock races); `collide`\n")
		b.WriteString("samples the same way and makes the sampled access wait on its watchpoint (DataCollider).\n")
		b.WriteString("See [static.md](static.md). In the plots, modes differ in dash pattern and workloads in colour.\n\n")
	}
	for _, p := range plots {
		fmt.Fprintf(&b, "![%s](%s)\n\n", p, p)
	}

	fmt.Fprintf(&b, "## Geometric mean over workloads\n\n")
	fmt.Fprintf(&b, "| configuration | slowdown median [min, max] | peak RSS ratio median [min, max] | workloads |\n")
	fmt.Fprintf(&b, "|---|---|---|---|\n")
	for _, c := range rs.Configs {
		_, _, gt, gm := rs.summarize(c.Name)
		fmt.Fprintf(&b, "| %s | %s | %s | %d/%d |\n", c.Label(), fmtGeo(gt), fmtGeo(gm), gt.N, len(rs.Workloads))
	}
	if na := rs.notAvailable(); len(na) > 0 {
		fmt.Fprintf(&b, "\nNot measured (n/a):\n\n")
		for _, s := range na {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	b.WriteString("\n## Workloads\n\n")
	b.WriteString("| workload | source | -bench | -benchtime | note |\n|---|---|---|---|---|\n")
	for _, w := range rs.Workloads {
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s |\n", w.Name, w.Source(), strings.ReplaceAll(w.Bench, "|", "\\|"), w.Benchtime, w.Note)
	}
	for _, w := range rs.Workloads {
		fmt.Fprintf(&b, "\n### %s\n\n", w.Name)
		b.WriteString("| configuration | wall s | slowdown median [min, max] | peak RSS MiB | RSS ratio median [min, max] | runs |\n")
		b.WriteString("|---|---|---|---|---|---|\n")
		for _, c := range rs.Configs {
			x := rs.cell(w.Name, c.Name)
			if x == nil {
				continue
			}
			if x.NA != "" {
				fmt.Fprintf(&b, "| %s | n/a | n/a | n/a | n/a | 0 |\n", c.Label())
				continue
			}
			base := rs.cell(w.Name, "base")
			t := ratios(x, base, wallOf)
			m := ratios(x, base, rssOf)
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", c.Label(),
				fmtValue(t, 1, "%.3g"), fmtRatio(t), fmtValue(m, 1<<20, "%.1f"), fmtRatio(m), fmtRuns(x, base))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// modesLine describes the racegen modes measured, their rates and seeds.
func (rs *results) modesLine() string {
	var parts []string
	for _, m := range allModes {
		cs := rs.rateConfigs(m)
		if len(cs) == 0 {
			continue
		}
		var rates []string
		for _, c := range cs {
			rates = append(rates, fmtRate(c.Rate))
		}
		p := fmt.Sprintf("%s at rates %s", m, strings.Join(rates, ", "))
		if m != modeDynamic {
			p += fmt.Sprintf(" (built with -seed=%d)", cs[0].Seed)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// hasStaticModes reports whether rs measured the static or collide mode.
func (rs *results) hasStaticModes() bool {
	return len(rs.rateConfigs(modeStatic))+len(rs.rateConfigs(modeCollide)) > 0
}

// softWatchCells names the workload/configuration cells with a run that
// fell back to software watchpoints.
func (rs *results) softWatchCells() []string {
	var out []string
	for _, x := range rs.Cells {
		for _, r := range x.Runs {
			if r.SoftWatch {
				out = append(out, x.Workload+" "+x.Config)
				break
			}
		}
	}
	return out
}

// notAvailable lists each configuration that could not be measured, per
// reason, with the workloads it affects.
func (rs *results) notAvailable() []string {
	var out []string
	for _, c := range rs.Configs {
		reasons := map[string][]string{}
		var order []string
		for _, w := range rs.Workloads {
			x := rs.cell(w.Name, c.Name)
			if x == nil || x.NA == "" {
				continue
			}
			if _, ok := reasons[x.NA]; !ok {
				order = append(order, x.NA)
			}
			reasons[x.NA] = append(reasons[x.NA], w.Name)
		}
		for _, r := range order {
			ws := reasons[r]
			who := strings.Join(ws, ", ")
			if len(ws) == len(rs.Workloads) {
				who = "all workloads"
			}
			out = append(out, fmt.Sprintf("%s on %s: %s", c.Label(), who, r))
		}
	}
	return out
}

func fmtRatio(s summary) string {
	if !s.ok() {
		return "n/a"
	}
	gt := ""
	if s.AtLeast {
		gt = ">"
	}
	if s.N == 1 {
		return fmt.Sprintf("%s%.2fx", gt, s.Med)
	}
	return fmt.Sprintf("%s%.2fx [%.2f, %.2f]", gt, s.Med, s.Min, s.Max)
}

func fmtGeo(g geoSummary) string {
	if g.N == 0 {
		return "n/a"
	}
	gt := ""
	if g.AtLeast {
		gt = ">"
	}
	return fmt.Sprintf("%s%.2fx [%.2f, %.2f]", gt, g.Med, g.Min, g.Max)
}

func fmtValue(s summary, unit float64, format string) string {
	if s.Value == 0 {
		return "n/a"
	}
	v := fmt.Sprintf(format, s.Value/unit)
	if s.ValueIsAtLeast {
		v = ">" + v
	}
	return v
}

// fmtRuns counts a cell's runs, naming those that were not clean.
func fmtRuns(x, base *cell) string {
	n := map[string]int{}
	for _, r := range x.Runs {
		n[r.Status]++
		for _, b := range base.Runs {
			if b.Rep == r.Rep && r.usable() && r.incomplete(b) {
				n["incomplete"]++
			}
		}
	}
	s := fmt.Sprint(len(x.Runs))
	var notes []string
	for _, st := range []string{statusRaces, "incomplete", statusTimeout, statusFail} {
		if n[st] > 0 {
			notes = append(notes, fmt.Sprintf("%d %s", n[st], st))
		}
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}
