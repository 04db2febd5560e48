package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/racegen/racegen/bench/internal/runinfo"
	"github.com/racegen/racegen/bench/internal/svgplot"
)

// The budget report puts each racegen mode's cost, from this harness,
// beside the races it finds, from bench/evalrate's modes comparison, to
// answer CRSampler's question: within a fixed overhead budget, which
// mode finds the most races. A mode's rate within a budget is the
// highest rate it was measured at whose geometric-mean slowdown stays
// within it.

// defaultBudget is the overhead budget of the comparison unless
// -budget-limit says otherwise: the slowdown (geometric mean over
// workloads of the median ratios) that a mode's rate must stay within.
// It is static sampling's (CRSampler reports under 1.05x); FRESA's
// comparison with uniform dynamic sampling is made at 1.10x.
const defaultBudget = 1.05

// The budget report's modes beside racegen's -mode values: dynamic mode
// with FRESA's frequency-sensitive rates (racegen -fresa), starting cold
// or from a profile of earlier runs, and static mode built from such a
// profile (racegen -profile). bench/fresa and bench/evalrate name them
// the same.
const (
	modeFresa         = "fresa"
	modeFresaProfile  = "fresa+profile"
	modeStaticProfile = "static+profile"
)

// budgetModes lists the budget report's modes in report order.
var budgetModes = []string{modeDynamic, modeFresa, modeFresaProfile, modeStatic, modeStaticProfile, modeCollide}

// budgetMode returns the mode of configuration c in the budget report and
// in the plots of rates (rateConfigs), or "" for a configuration they
// leave out: the uninstrumented and -race builds, and those that check
// accesses in part of the program only.
func budgetMode(c config) string {
	switch {
	case c.Kind != racegen || c.Access != "":
		return ""
	case c.Fresa && c.Profile:
		return modeFresaProfile
	case c.Fresa:
		return modeFresa
	case c.buildsFromProfile():
		return modeStaticProfile
	}
	return c.mode()
}

// detection is what the budget report reads from one saved results file
// of a detection harness: programs, each run in some modes at some rates.
// Only these fields are decoded. bench/evalrate's modes comparison runs
// every mode at one rate (Modes); bench/fresa runs uniform dynamic
// sampling and FRESA at a ladder of rates (Cells), and names dynamic mode
// "uniform".
type detection struct {
	Command  string            `json:"command"`
	Racegen  string            `json:"racegen"`
	ModeRate float64           `json:"mode_rate"`
	ModeRuns int               `json:"mode_runs"`
	Runs     int               `json:"runs"`
	Programs []detectedProgram `json:"programs"`
}

// A detectedProgram is one evaluation program's runs.
type detectedProgram struct {
	Dir   string        `json:"dir"`
	Races []string      `json:"races"`
	Modes []detectedRun `json:"modes"`
	Cells []detectedRun `json:"cells"`
}

// A detectedRun is the runs of one program in one mode at one rate.
type detectedRun struct {
	Mode  string         `json:"mode"`
	Rate  float64        `json:"rate"`
	Runs  int            `json:"runs"`
	Found map[string]int `json:"found"`
}

// fresaModes maps bench/fresa's mode names to the budget report's.
var fresaModes = map[string]string{"uniform": modeDynamic, modeFresa: modeFresa, modeFresaProfile: modeFresaProfile}

// loadDetections reads the bench/evalrate and bench/fresa results files
// in paths, with bench/fresa's runs moved into Modes under the budget
// report's mode names.
func loadDetections(paths []string) ([]detection, error) {
	var ds []detection
	for _, p := range paths {
		var d detection
		if err := runinfo.LoadJSON(p, &d); err != nil {
			return nil, err
		}
		for i := range d.Programs {
			prog := &d.Programs[i]
			for _, c := range prog.Cells {
				if m, ok := fresaModes[c.Mode]; ok {
					c.Mode = m
					prog.Modes = append(prog.Modes, c)
				}
			}
			prog.Cells = nil
		}
		if !slices.ContainsFunc(d.Programs, func(p detectedProgram) bool { return len(p.Modes) > 0 }) {
			return nil, fmt.Errorf("%s: no runs by mode (bench/evalrate run with -modes '', or not a detection harness's results)", p)
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// rates returns the distinct rates d ran its modes at, in increasing order.
func (d detection) rates() []float64 {
	var rs []float64
	for _, p := range d.Programs {
		for _, m := range p.Modes {
			if !slices.Contains(rs, m.Rate) {
				rs = append(rs, m.Rate)
			}
		}
	}
	slices.Sort(rs)
	return rs
}

// A raceClass says whether a race of the evaluation corpora is a clock
// race, the kind static mode can find: one in which the first goroutine
// does not synchronize between its access and the second goroutine's.
type raceClass int

const (
	notClock  raceClass = iota // the first goroutine always synchronizes in between
	someClock                  // a clock race in some interleavings
	clockRace                  // a clock race in every run
	raceClasses
)

var raceClassNames = [raceClasses]string{"not clock", "clock in some runs", "clock"}

// classify returns the class of the race name of the program in dir.
// It reads the timings that testdata/evalrace/many's names begin with
// (see that program's doc comment): once-hold and loop races are clock
// races, in loop-sync races each iteration also locks a mutex, so only
// the second accesses that fall before it make clock races, and
// once-sync races and every race of testdata/evalrace synchronize right
// after the first access.
func classify(dir, name string) raceClass {
	if !strings.HasSuffix(dir, "/many") {
		return notClock
	}
	switch {
	case strings.HasPrefix(name, "once-hold-"), strings.HasPrefix(name, "loop-") && !strings.HasPrefix(name, "loop-sync-"):
		return clockRace
	case strings.HasPrefix(name, "loop-sync-"):
		return someClock
	}
	return notClock
}

// A budgetPoint is one mode at one rate: its cost and what it found.
type budgetPoint struct {
	Mode   string
	Rate   float64
	Config string     // the harness configuration measured, "" if none
	Time   geoSummary // slowdown, geometric mean over workloads
	RSS    geoSummary
	Runs   int // runs per program of the detection
	Races  int // races in the programs
	Found  int // distinct races found
	// Finds counts every race a run reported, over the runs: at low
	// rates a few sampled periods find races together, and Found then
	// moves by several at once from one set of runs to the next.
	Finds int
	// ByClass splits Found by raceClass, and Of the corpus likewise.
	ByClass, Of [raceClasses]int
}

// budgetPoints pairs the detection runs of ds with the configurations
// of rs of the same budget mode and rate (budgetMode), in mode and then
// rate order.
func budgetPoints(rs *results, ds []detection) []budgetPoint {
	var ps []budgetPoint
	for _, d := range ds {
		type key struct {
			mode string
			rate float64
		}
		byMode := map[key]*budgetPoint{}
		var order []key
		for _, p := range d.Programs {
			for _, m := range p.Modes {
				k := key{m.Mode, m.Rate}
				bp := byMode[k]
				if bp == nil {
					bp = &budgetPoint{Mode: m.Mode, Rate: m.Rate, Runs: m.Runs}
					byMode[k] = bp
					order = append(order, k)
				}
				bp.Runs = min(bp.Runs, m.Runs)
				bp.Races += len(p.Races)
				for _, n := range p.Races {
					c := classify(p.Dir, n)
					bp.Of[c]++
					bp.Finds += m.Found[n]
					if m.Found[n] > 0 {
						bp.Found++
						bp.ByClass[c]++
					}
				}
			}
		}
		for _, k := range order {
			ps = append(ps, *byMode[k])
		}
	}
	// Each measured rate gets its cost; one without a detection run is a
	// point too, since the budget is a property of the cost alone.
	for _, m := range budgetModes {
		for _, c := range rs.rateConfigs(m) {
			_, _, t, mem := rs.summarize(c.Name)
			detected := false
			for i := range ps {
				if p := &ps[i]; p.Mode == m && p.Rate == c.Rate {
					p.Config, p.Time, p.RSS = c.Label(), t, mem
					detected = true
				}
			}
			if !detected {
				ps = append(ps, budgetPoint{Mode: m, Rate: c.Rate, Config: c.Label(), Time: t, RSS: mem})
			}
		}
	}
	slices.SortStableFunc(ps, func(a, b budgetPoint) int {
		if c := slices.Index(budgetModes, a.Mode) - slices.Index(budgetModes, b.Mode); c != 0 {
			return c
		}
		switch {
		case a.Rate < b.Rate:
			return -1
		case a.Rate > b.Rate:
			return 1
		}
		return 0
	})
	return ps
}

// costed reports whether p's cost was measured.
func (p budgetPoint) costed() bool { return p.Config != "" && p.Time.N > 0 }

// detected reports whether p's detection was measured.
func (p budgetPoint) detected() bool { return p.Runs > 0 }

// withinBudget returns, for each mode of ps, the point at the highest
// rate whose slowdown stays within limit, if any.
func withinBudget(ps []budgetPoint, limit float64) map[string]budgetPoint {
	best := map[string]budgetPoint{}
	for _, p := range ps {
		if !p.costed() || p.Time.AtLeast || p.Time.Med > limit {
			continue
		}
		if b, ok := best[p.Mode]; !ok || p.Rate > b.Rate {
			best[p.Mode] = p
		}
	}
	return best
}

// writeBudget writes the budget report of ps, the budget points of rs
// and ds: the table of every point, the comparison at the budget limit,
// and the plot (named plot, beside the report).
func writeBudget(w io.Writer, rs *results, ds []detection, ps []budgetPoint, limit float64, plot string) error {
	var b strings.Builder
	b.WriteString("# Races found against overhead, by detection mode\n\n")
	b.WriteString("Written by `go run ./bench/driver -report FILE -detect FILES -budget OUT`. Each point is a\n")
	b.WriteString("racegen mode at one rate: its slowdown and peak RSS from the cost harness (geometric mean over\n")
	b.WriteString("workloads of the median ratio to the uninstrumented build), and the distinct races that\n")
	b.WriteString("a detection harness (bench/evalrate's modes comparison, or bench/fresa) found at the same mode\n")
	b.WriteString("and rate over its runs of the evaluation programs (a new build per run with its own `-seed` in\n")
	b.WriteString("the static modes). *fresa* is dynamic mode with FRESA's frequency-sensitive rates (`-fresa`);\n")
	b.WriteString("*fresa+profile* is the same started from a profile of earlier runs.\n")
	b.WriteString("*Finds* counts the races each run reported, summed over the runs: where it is a few, the\n")
	b.WriteString("distinct races are those of the few runs whose sampling periods fell on them.\n")
	fmt.Fprintf(&b, "A mode's rate within the budget is the highest measured rate whose slowdown is at most %.2fx.\n\n", limit)
	fmt.Fprintf(&b, "- cost: `%s` (racegen %s, %s)\n", rs.Command, rs.Racegen, rs.Date)
	for _, d := range ds {
		rates, runs := d.rates(), d.ModeRuns
		if runs == 0 {
			runs = d.Runs // bench/fresa's
		}
		var rs []string
		for _, r := range rates {
			rs = append(rs, fmtRate(r))
		}
		word := "rate"
		if len(rs) > 1 {
			word = "rates"
		}
		fmt.Fprintf(&b, "- detection at %s %s, %d runs per program: `%s` (racegen %s)\n", word, strings.Join(rs, ", "), runs, d.Command, d.Racegen)
	}
	b.WriteString("\n")
	if plot != "" {
		fmt.Fprintf(&b, "![%s](%s)\n\n", plot, plot)
	}
	b.WriteString("| mode | rate | slowdown | peak RSS | runs | distinct races | finds |")
	for c := clockRace; c >= notClock; c-- {
		fmt.Fprintf(&b, " %s |", raceClassNames[c])
	}
	b.WriteString("\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range ps {
		if p.Config == "" {
			// A rate the detection harness ran and the cost harness did not.
			fmt.Fprintf(&b, "| %s | %s | not measured | not measured |", p.Mode, fmtRate(p.Rate))
		} else {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |", p.Mode, fmtRate(p.Rate), fmtGeo(p.Time), fmtGeo(p.RSS))
		}
		if !p.detected() {
			b.WriteString(" - | not run | - |" + strings.Repeat(" - |", int(raceClasses)) + "\n")
			continue
		}
		fmt.Fprintf(&b, " %d | %d of %d | %d |", p.Runs, p.Found, p.Races, p.Finds)
		for c := clockRace; c >= notClock; c-- {
			fmt.Fprintf(&b, " %d of %d |", p.ByClass[c], p.Of[c])
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	best := withinBudget(ps, limit)
	fmt.Fprintf(&b, "Within %.2fx:\n\n", limit)
	for _, m := range budgetModes {
		if !slices.ContainsFunc(ps, func(p budgetPoint) bool { return p.Mode == m }) {
			continue
		}
		if p, ok := best[m]; ok {
			fmt.Fprintf(&b, "- %s: rate %s (%.3fx): ", m, fmtRate(p.Rate), p.Time.Med)
			switch {
			case p.detected():
				fmt.Fprintf(&b, "%d distinct races in %d runs (finds: %d)\n", p.Found, p.Runs, p.Finds)
			case p.Rate == 0:
				b.WriteString("samples nothing, so finds no race\n")
			default:
				b.WriteString("detection not run at this rate\n")
			}
			continue
		}
		fmt.Fprintf(&b, "- %s: no measured rate is within the budget (cheapest: %s)\n", m, cheapest(ps, m))
	}
	for _, cmp := range comparisons {
		if x, y := best[cmp.mode], best[cmp.against]; x.detected() && y.detected() {
			fmt.Fprintf(&b, "\n%s within %.2fx: %d against %d distinct races", cmp.title, limit, x.Found, y.Found)
			if y.Found > 0 {
				fmt.Fprintf(&b, " (%.2fx)", float64(x.Found)/float64(y.Found))
			}
			fmt.Fprintf(&b, ", %d against %d finds", x.Finds, y.Finds)
			if y.Finds > 0 {
				fmt.Fprintf(&b, " (%.2fx)", float64(x.Finds)/float64(y.Finds))
			}
			b.WriteString(".\n")
		}
	}
	for _, cmp := range comparisons {
		eq := atEqualDetection(ps, cmp.mode, cmp.against)
		if len(eq) == 0 || !slices.ContainsFunc(ps, func(p budgetPoint) bool { return p.Mode == cmp.against && p.detected() }) {
			continue // nothing to compare, or the other mode's detection was not run
		}
		fmt.Fprintf(&b, "\n%s at equal detection: each %s rate against the\n", cmp.title, cmp.mode)
		fmt.Fprintf(&b, "cheapest %s rate that found at least as many distinct races in the same programs\n", cmp.against)
		b.WriteString("(overhead: slowdown less 1):\n\n")
		for _, e := range eq {
			x, y := e.point, e.against
			fmt.Fprintf(&b, "- %s at rate %s (%.3fx, %d of %d): ", x.Mode, fmtRate(x.Rate), x.Time.Med, x.Found, x.Races)
			if !e.ok {
				fmt.Fprintf(&b, "no measured %s rate finds as many\n", cmp.against)
				continue
			}
			fmt.Fprintf(&b, "%s at rate %s (%.3fx, %d of %d)", y.Mode, fmtRate(y.Rate), y.Time.Med, y.Found, y.Races)
			if xo, yo := x.Time.Med-1, y.Time.Med-1; xo > 0 && yo > 0 {
				fmt.Fprintf(&b, ", overhead %.2fx lower\n", yo/xo)
			} else {
				b.WriteString(", an overhead too small to divide by\n")
			}
		}
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return nil
}

// A comparison is a pair of the budget report's modes it sets side by
// side: mode, which is meant to find more within a budget or to cost less
// at equal detection, against the mode it improves on.
type comparison struct {
	mode, against string
	title         string // how the report names the comparison
}

// comparisons lists the budget report's comparisons: FRESA's two claims,
// over uniform sampling and, starting from a profile, over itself cold.
var comparisons = []comparison{
	{modeFresa, modeDynamic, "FRESA against uniform dynamic sampling"},
	{modeFresaProfile, modeFresa, "FRESA from a profile against FRESA starting cold"},
}

// An equalDetection pairs a point with the cheapest point of the mode it
// is compared against that found at least as many distinct races in the
// same programs, if one did (ok).
type equalDetection struct {
	point, against budgetPoint
	ok             bool
}

// atEqualDetection returns, for each point of mode in ps whose cost and
// detection were both measured, the cheapest such point of mode against
// that found at least as many distinct races among as many: the other
// half of a comparison within a budget, what the same detection costs.
// Points of the same total of races are taken to be of the same programs,
// as budgetPoints sums them per detection file.
func atEqualDetection(ps []budgetPoint, mode, against string) []equalDetection {
	// measured reports whether p has a cost to compare, one not cut
	// short by the time limit, and a detection.
	measured := func(p budgetPoint) bool { return p.costed() && !p.Time.AtLeast && p.detected() }
	var eq []equalDetection
	for _, x := range ps {
		if x.Mode != mode || !measured(x) {
			continue
		}
		e := equalDetection{point: x}
		for _, y := range ps {
			if y.Mode != against || !measured(y) || y.Races != x.Races || y.Found < x.Found {
				continue
			}
			if !e.ok || y.Time.Med < e.against.Time.Med {
				e.against, e.ok = y, true
			}
		}
		eq = append(eq, e)
	}
	return eq
}

// cheapest describes the lowest-cost measured point of mode in ps.
func cheapest(ps []budgetPoint, mode string) string {
	var c *budgetPoint
	for i := range ps {
		p := &ps[i]
		if p.Mode == mode && p.costed() && (c == nil || p.Time.Med < c.Time.Med) {
			c = p
		}
	}
	if c == nil {
		return "no cost measured"
	}
	return fmt.Sprintf("rate %s at %.3fx", fmtRate(c.Rate), c.Time.Med)
}

// writeBudgetPlot draws distinct races found against slowdown, one line
// per mode through its rates, with the budget limit as a vertical line.
func writeBudgetPlot(w io.Writer, ps []budgetPoint, limit float64) error {
	xmax, ymax := limit, 1.0
	for _, p := range ps {
		if p.costed() {
			xmax = math.Max(xmax, p.Time.Med)
		}
		ymax = math.Max(ymax, float64(p.Races))
	}
	xmax = math.Ceil(xmax*10) / 10
	plot := &svgplot.Plot{
		Title: "Distinct races found against slowdown",
		X:     svgplot.Axis{Label: "slowdown, geometric mean over workloads (log scale)", Min: 0.9, Max: xmax * 1.1, Log: true, Ticks: slowdownTicks(xmax, limit)},
		Y:     svgplot.Axis{Label: "distinct races found", Min: 0, Max: ymax * 1.05, Ticks: raceTicks(ymax)},
	}
	for _, m := range budgetModes {
		s := svgplot.Series{Name: m, Color: modeStyle[m].color, Dash: modeStyle[m].dash, Width: 2}
		for _, p := range ps {
			if p.Mode == m && p.costed() && p.detected() {
				s.Points = append(s.Points, svgplot.Point{X: p.Time.Med, Y: float64(p.Found)})
			}
		}
		if len(s.Points) > 0 {
			s.Name = fmt.Sprintf("%s (rates %s)", m, modeRateList(ps, m))
			plot.Series = append(plot.Series, s)
		}
	}
	budget := svgplot.Series{Name: fmt.Sprintf("budget %.2fx", limit), Color: "#d62728", Dash: "4 4", Width: 1}
	budget.Points = []svgplot.Point{{X: limit, Y: 0}, {X: limit, Y: ymax}}
	plot.Series = append(plot.Series, budget)
	return plot.Write(w)
}

// modeRateList lists the costed rates of mode in ps.
func modeRateList(ps []budgetPoint, mode string) string {
	var rs []string
	for _, p := range ps {
		if p.Mode == mode && p.costed() && p.detected() {
			rs = append(rs, fmtRate(p.Rate))
		}
	}
	return strings.Join(rs, ", ")
}

// slowdownTicks marks the slowdown axis from 1 to max, and the limit.
func slowdownTicks(max, limit float64) []float64 {
	ts := []float64{1, limit}
	for _, t := range []float64{1.1, 1.25, 1.5, 2, 3, 5, 10, 20} {
		if t <= max*1.1 {
			ts = append(ts, t)
		}
	}
	return ts
}

// raceTicks marks the race-count axis every ten races up to max.
func raceTicks(max float64) []float64 {
	var ts []float64
	for t := 0.0; t <= max; t += 10 {
		ts = append(ts, t)
	}
	return ts
}
