package runtime

import "sync/atomic"

// A profile is FRESA's site-frequency table carried across runs: "uses
// frequency statistics for the next time's sampling" (seeds/004). A run
// writes one with the option profile_out=PATH (to PATH.PID, like
// log_path); racegen merge -profiles sums many; a run starts from one with
// the option profile=PATH, or a build with racegen -profile FILE, so that
// each site is in its group from its first access. The format is text:
//
//	racegen profile v2
//	runs N
//	COUNT<TAB>FILE:LINE:COL<TAB>FUNC
//	...
//
// one line per site with accesses, COUNT summed over the N runs. A site
// is named by its position, which survives rebuilds of unchanged code.
// Sites that share a counter (fresa.go) are written with the shared
// count.
//
// COUNT estimates all of a site's accesses, not those of sampling
// periods alone, which are all a run counts: a run at rate r writes its
// counts divided by r. A run that starts from a profile starts each
// counter at COUNT/N times its own rate, the count a run at that rate
// reaches by its end. So profiles of runs at different rates add up, and
// a profile recorded at a high rate, which needs fewer runs, serves runs
// at a low one. (Version 1 wrote the counts as they were: a run at rate
// 0.01 that started from the profile of runs at 0.1 had every counter
// start ten times higher than it would reach itself, and its hot sites
// one or two groups higher.)

// profileHeader is the first line of a profile.
const profileHeader = "racegen profile v2"

// profileHeaderV1 is the first line of a profile of racegen before
// counts were scaled by rate, which is refused: its counts cannot be
// scaled without the rate they were counted at.
const profileHeaderV1 = "racegen profile v1"

// profileWritten is set once the run's profile is written.
var profileWritten atomic.Bool

// profileIn holds the counts the run's counters start at, from the
// profile it started from, by "FILE:LINE:COL\tFUNC"; nil if there is
// none.
var profileIn map[string]uint32

// loadProfile parses the profile src, named name in messages, into
// profileIn, adding to what is there: each site's count per run at the
// sampling rate rate.
func loadProfile(name string, src string, rate float64) error {
	lines := split(trimSpace(src), "\n")
	if len(lines) > 0 && trimSpace(lines[0]) == profileHeaderV1 {
		return errorString(name + ": a profile of an earlier racegen (\"" + profileHeaderV1 + "\"), whose counts are not scaled by the rate they were counted at; record it again")
	}
	if len(lines) < 2 || trimSpace(lines[0]) != profileHeader {
		return errorString(name + ": not a racegen profile (no \"" + profileHeader + "\" line)")
	}
	r, ok := cutPrefix(trimSpace(lines[1]), "runs ")
	runs, err := parseInt(r)
	if !ok || err != nil || runs < 1 {
		return errorString(name + ":2: want \"runs N\", N ≥ 1")
	}
	if profileIn == nil {
		profileIn = make(map[string]uint32)
	}
	for i, l := range lines[2:] {
		count, key, ok := cut(trimSpace(l), "\t")
		n, err := parseInt(count)
		if !ok || err != nil || n < 0 {
			return errorString(name + ":" + string(appendInt(nil, int64(i+3))) + ": want COUNT<TAB>FILE:LINE:COL<TAB>FUNC")
		}
		// The counters stop at 2^31 (fresaSkip), and so does the sum
		// of the profiles a run starts from.
		per := float64(profileIn[key]) + float64(n)/float64(runs)*rate + 0.5
		profileIn[key] = uint32(min(per, 1<<31))
	}
	return nil
}

// applyProfile presets the counters of the sites of package pkg, whose
// site table is table, from profileIn.
func applyProfile(pkg uint32, table string) {
	if len(profileIn) == 0 {
		return
	}
	for i, pos := range siteLines(table) {
		if n, ok := profileIn[pos]; ok {
			site := uint64(pkg)<<32 | uint64(i+1)
			c := &fresa.counts[fresaIndex(site)]
			if c.Load() < n {
				c.Store(n)
			}
		}
	}
}

// appendProfile appends the profile of this run at sampling rate rate:
// the count of every registered site that has one, divided by rate. At
// rate 0 nothing is counted, and the profile names no site.
func appendProfile(b []byte, rate float64) []byte {
	b = append(b, profileHeader+"\nruns 1\n"...)
	sites.mu.Lock()
	defer sites.mu.Unlock()
	for pkg, table := range sites.raw {
		for i, pos := range siteLines(table) {
			site := uint64(pkg)<<32 | uint64(i+1)
			if n := fresa.counts[fresaIndex(site)].Load(); n > 0 && rate > 0 {
				b = appendUint(b, uint64(float64(n)/rate+0.5))
				b = append(b, '\t')
				b = append(b, pos...)
				b = append(b, '\n')
			}
		}
	}
	return b
}

// writeProfile writes the run's profile to the file profile_out names,
// once, if it names one.
func writeProfile() {
	if opts.profileOut == "" || !profileWritten.CompareAndSwap(false, true) {
		return
	}
	if err := writeProfileFile(opts.profileOut, appendProfile(nil, opts.rate)); err != nil {
		printStderr("racegen: profile_out: " + err.Error() + "\n")
	}
}

// startProfile loads the profiles the run starts from, racegen -profile's
// and the option profile's, and turns counting on if anything needs it.
func startProfile() {
	if buildProfile != "" {
		if err := loadProfile("racegen -profile", buildProfile, opts.rate); err != nil {
			printStderr("racegen: " + err.Error() + "\n")
		}
	}
	if opts.profile != "" {
		src, err := readProfileFile(opts.profile)
		if err == nil {
			err = loadProfile(opts.profile, string(src), opts.rate)
		}
		if err != nil {
			printStderr("racegen: " + OptionsEnv + ": profile: " + err.Error() + "\n")
		}
	}
	fresa.on = opts.fresa
	fresa.count = opts.fresa || opts.profileOut != ""
}
