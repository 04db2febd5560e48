package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

const mergeUsage = `usage: racegen merge [-json] [files or directories...]
       racegen merge -profiles [files or directories...] > merged

Merge reads the JSON reports of many runs of programs built by racegen
(RACEGEN_OPTIONS="format=json log_path=DIR/NAME": one file per process)
and prints each distinct race once, keyed by its pair of sites, with how
many reports and runs saw it, when first and last, and one report's
stacks. A directory stands for every file beneath it; "-", or no
argument, for standard input. Lines that are not reports are skipped
with a warning.

With -profiles, merge reads the site-frequency profiles of many runs
(RACEGEN_OPTIONS=profile_out=PATH) and writes their sum, a profile that
racegen -fresa -profile builds from; a file that is not a profile is
skipped with a warning.
`

// runMerge is racegen merge.
func runMerge(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("racegen merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	profiles := fs.Bool("profiles", false, "merge FRESA profiles instead of reports")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), mergeUsage+"\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	if *profiles {
		if err := mergeProfiles(paths, stdin, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "racegen merge: %v\n", err)
			return 1
		}
		return 0
	}
	res, err := mergeInputs(paths, stdin, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "racegen merge: %v\n", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			fmt.Fprintf(stderr, "racegen merge: %v\n", err)
			return 1
		}
		return 0
	}
	printMerged(stdout, res)
	return 0
}

// printMerged writes res as text.
func printMerged(w io.Writer, res *mergeResult) {
	fmt.Fprintf(w, "%d distinct %s in %d %s from %d %s\n",
		len(res.Races), plural(len(res.Races), "race", "races"),
		res.Reports, plural(res.Reports, "report", "reports"),
		res.Runs, plural(res.Runs, "run", "runs"))
	if res.Skipped > 0 {
		fmt.Fprintf(w, "%d %s skipped\n", res.Skipped, plural(res.Skipped, "line", "lines"))
	}
	for i, r := range res.Races {
		fmt.Fprintf(w, "\nrace %d: %s and %s\n", i+1, r.Sites[0], r.Sites[1])
		fmt.Fprintf(w, "  %d %s in %d of %d runs, first %s, last %s\n",
			r.Reports, plural(r.Reports, "report", "reports"), r.Runs, res.Runs,
			r.First.UTC().Format(time.RFC3339), r.Last.UTC().Format(time.RFC3339))
		printAccess(w, "", r.Example.Access)
		printAccess(w, "previous ", r.Example.Previous)
		const maxInputs = 5
		in := r.Inputs
		more := ""
		if len(in) > maxInputs {
			more = fmt.Sprintf(" and %d more", len(in)-maxInputs)
			in = in[:maxInputs]
		}
		fmt.Fprintf(w, "  seen in %s%s\n", strings.Join(in, ", "), more)
	}
}

// printAccess writes one access of an example report.
func printAccess(w io.Writer, prefix string, a jsonAccess) {
	fmt.Fprintf(w, "  %s%s by goroutine %d:\n", prefix, a.Op, a.Goroutine)
	for _, f := range a.Stack {
		fmt.Fprintf(w, "      %s()\n          %s:%d\n", f.Func, f.File, f.Line)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
