package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A profile is FRESA's site-frequency table (the runtime's profile.go
// defines the format): how many accesses each site made, estimated from
// those of sampling periods, summed over some runs.
type profile struct {
	runs   int
	counts map[string]uint64 // by "FILE:LINE:COL\tFUNC"
}

// profileHeader is the first line of a profile.
const profileHeader = "racegen profile v2"

// profileHeaderV1 is the first line of the profiles of racegen before
// their counts were scaled by the rate they were counted at, which
// cannot be scaled now and are refused.
const profileHeaderV1 = "racegen profile v1"

// parseProfile parses a profile; name names it in errors.
func parseProfile(name string, r io.Reader) (*profile, error) {
	p := &profile{counts: map[string]uint64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case n == 1 && line == profileHeaderV1:
			return nil, fmt.Errorf("%s: a profile of an earlier racegen (%q), whose counts are not scaled by the rate they were counted at; record it again", name, line)
		case n == 1:
			if line != profileHeader {
				return nil, fmt.Errorf("%s: not a racegen profile (want %q first)", name, profileHeader)
			}
		case n == 2:
			runs, err := strconv.Atoi(strings.TrimPrefix(line, "runs "))
			if !strings.HasPrefix(line, "runs ") || err != nil || runs < 1 {
				return nil, fmt.Errorf("%s:2: want \"runs N\", N ≥ 1", name)
			}
			p.runs = runs
		case line == "":
		default:
			count, key, ok := strings.Cut(line, "\t")
			c, err := strconv.ParseUint(count, 10, 64)
			if !ok || err != nil || !strings.Contains(key, "\t") {
				return nil, fmt.Errorf("%s:%d: want COUNT<TAB>FILE:LINE:COL<TAB>FUNC", name, n)
			}
			p.counts[key] += c
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if n < 2 {
		return nil, fmt.Errorf("%s: not a racegen profile (too short)", name)
	}
	return p, nil
}

// checkProfile reports whether src is a profile the runtime can start
// from.
func checkProfile(src []byte) error {
	_, err := parseProfile("profile", bytes.NewReader(src))
	return err
}

// add adds q's runs and counts to p.
func (p *profile) add(q *profile) {
	p.runs += q.runs
	for k, c := range q.counts {
		p.counts[k] += c
	}
}

// perRunBySite returns p's counts per run by site, named as
// instrument.StaticRates names them ("FILE:LINE:COL", FILE a base name).
func (p *profile) perRunBySite() map[string]float64 {
	m := make(map[string]float64, len(p.counts))
	for k, c := range p.counts {
		pos, _, _ := strings.Cut(k, "\t")
		rest, col, ok1 := cutLast(pos, ":")
		file, line, ok2 := cutLast(rest, ":")
		if !ok1 || !ok2 {
			continue
		}
		m[filepath.Base(file)+":"+line+":"+col] += float64(c) / float64(p.runs)
	}
	return m
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// write writes p in the profile format, its sites in order.
func (p *profile) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\nruns %d\n", profileHeader, p.runs)
	keys := make([]string, 0, len(p.counts))
	for k := range p.counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(bw, "%d\t%s\n", p.counts[k], k)
	}
	return bw.Flush()
}
