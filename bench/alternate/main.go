// Command alternate runs test binaries' benchmarks in turn, round after
// round, and prints each benchmark's median ns/op per binary and its ratio
// to the first binary's. On a shared machine whose speed drifts by more
// than the differences being measured, binaries run one after the other
// see the same drift; the driver of make bench does the same at the scale
// of whole workloads, and this command at the scale of one benchmark.
//
// Usage:
//
//	go run ./bench/alternate [-rounds 8] -bench RE [-benchtime T] [-dir D] binary...
//
// Each binary runs as `binary -test.run '^$' -test.bench RE
// -test.benchtime T` in directory D (a test binary reads its testdata
// relative to where it runs).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/racegen/racegen/bench/internal/stats"
)

func main() {
	rounds := flag.Int("rounds", 8, "`n`umber of rounds")
	bench := flag.String("bench", "", "benchmarks to run (`regexp`), as -test.bench")
	benchtime := flag.String("benchtime", "1s", "`t`, as -test.benchtime")
	dir := flag.String("dir", "", "`directory` to run the binaries in (default: the current one)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: alternate [-rounds n] -bench regexp [-benchtime t] [-dir d] binary...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *bench == "" || flag.NArg() == 0 || *rounds < 1 {
		flag.Usage()
		os.Exit(2)
	}
	res, err := run(flag.Args(), *rounds, *bench, *benchtime, *dir, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "alternate: %v\n", err)
		os.Exit(1)
	}
	write(os.Stdout, flag.Args(), res)
}

// results holds, by benchmark and then by binary, the ns/op of each round.
type results map[string]map[string][]float64

// run runs every binary once per round, in the order given, and collects
// the ns/op of their benchmarks; progress goes to log.
func run(bins []string, rounds int, bench, benchtime, dir string, log io.Writer) (results, error) {
	res := results{}
	for r := 1; r <= rounds; r++ {
		for _, b := range bins {
			cmd := exec.Command(b, "-test.run", "^$", "-test.bench", bench, "-test.benchtime", benchtime)
			cmd.Dir = dir
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				return nil, fmt.Errorf("%s: %v\n%s", b, err, out.Bytes())
			}
			n := parse(out.Bytes(), b, res)
			if n == 0 {
				return nil, fmt.Errorf("%s printed no benchmark result matching %q", b, bench)
			}
			fmt.Fprintf(log, "round %d/%d: %s, %d benchmarks\n", r, rounds, b, n)
		}
	}
	return res, nil
}

// resultRE matches a benchmark's result line: name, iterations, ns/op.
var resultRE = regexp.MustCompile(`^(Benchmark\S+)\s+\d+\s+([0-9.]+) ns/op`)

// parse adds the results in out, printed by binary bin, to res and
// returns how many it found.
func parse(out []byte, bin string, res results) int {
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := resultRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			continue
		}
		if res[m[1]] == nil {
			res[m[1]] = map[string][]float64{}
		}
		res[m[1]][bin] = append(res[m[1]][bin], v)
		n++
	}
	return n
}

// write prints, for each benchmark, each binary's median and its ratio to
// the first binary's, with the values of every round.
func write(w io.Writer, bins []string, res results) {
	names := make([]string, 0, len(res))
	for n := range res {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintln(w, n)
		base := res[n][bins[0]]
		for _, b := range bins {
			vs := res[n][b]
			if len(vs) == 0 {
				continue
			}
			ratio := "-"
			if len(base) > 0 {
				ratio = fmt.Sprintf("%.2fx", stats.Median(vs)/stats.Median(base))
			}
			all := make([]string, len(vs))
			for i, v := range vs {
				all[i] = strconv.FormatFloat(v, 'f', -1, 64)
			}
			fmt.Fprintf(w, "  %-40s median %10.1f ns/op  %6s  [%s]\n", b, stats.Median(vs), ratio, strings.Join(all, " "))
		}
	}
}
