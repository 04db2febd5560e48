package runtime

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"
	"testing"
)

func TestFresaGroup(t *testing.T) {
	for _, tt := range []struct {
		n    uint32
		want uint
	}{
		{0, 0}, {1, 0}, {fresaCold, 0},
		{fresaCold + 1, 1}, {4 * fresaCold, 1},
		{4*fresaCold + 1, 2}, {16 * fresaCold, 2},
		{16*fresaCold + 1, 3},
		{fresaCold << 22, 11}, {fresaCold<<22 + 1, 12},
		{1 << 31, fresaMaxGroup}, {^uint32(0), fresaMaxGroup},
	} {
		if got := fresaGroup(tt.n); got != tt.want {
			t.Errorf("fresaGroup(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// TestFresaNext checks fresaSkip's table of groups against fresaGroup at
// every power of two a counter passes and beside it, up to the most a
// counter holds.
func TestFresaNext(t *testing.T) {
	for l := range 32 {
		p := uint32(1) << l
		for _, n := range []uint32{p - 1, p, p + 1, p + p/2} {
			if n > 1<<31+1<<fresaMaxGroup {
				continue
			}
			if got, want := uint(fresaNext[bits.Len32(n)]), fresaGroup(n+1); got != want {
				t.Errorf("counter %d: next access in group %d, want fresaGroup(%d) = %d", n, got, n+1, want)
			}
		}
	}
}

// withFresa runs f with FRESA on and every counter at zero.
func withFresa(t *testing.T, f func()) {
	t.Helper()
	on, count := fresa.on, fresa.count
	clear := func() {
		for i := range fresa.counts {
			fresa.counts[i].Store(0)
		}
	}
	clear()
	fresa.on, fresa.count = true, true
	defer func() {
		fresa.on, fresa.count = on, count
		clear()
	}()
	f()
}

// TestFresaDraws checks that an access of a site in group j is recorded
// with probability 2^-j: the count of draws kept out of n at each group is
// within five standard deviations of n·2^-j.
func TestFresaDraws(t *testing.T) {
	withFresa(t, func() {
		var d draws
		d.seed()
		for j := uint(0); j <= 8; j++ {
			site := newSite()
			// The counter is set before each draw, so that every draw
			// is made in group j: its last count.
			last := uint32(0)
			if j > 0 {
				last = fresaCold << (2 * j)
			}
			const n = 20000
			kept := 0
			for range n {
				fresa.counts[fresaIndex(site)].Store(max(last, 1) - 1)
				if !fresaSkip(site, d.next(), 0) {
					kept++
				}
			}
			p := 1 / float64(uint(1)<<j)
			mean, sd := n*p, math.Sqrt(n*p*(1-p))
			if d := float64(kept) - mean; d > 5*sd+1 || d < -5*sd-1 {
				t.Errorf("group %d: kept %d of %d draws, want about %.0f", j, kept, n, mean)
			}
		}
	})
}

// TestFresaCountsOnlySampling checks that nothing is counted outside
// sampling periods: the path there is the one without FRESA.
func TestFresaCountsOnlySampling(t *testing.T) {
	withFresa(t, func() {
		x := heapObject()
		site := newSite()
		Write(x, 8, newSite()) // history, so that the accesses below reach the shadow
		setSampling(t, false)
		for range 100 {
			Write(x, 8, site)
		}
		if n := fresa.counts[fresaIndex(site)].Load(); n != 0 {
			t.Errorf("%d accesses counted outside sampling periods, want 0", n)
		}
	})
}

// TestFresaDrawsBeforeCache: R and W draw in hookAccess, before the
// epoch cache is asked, so that a skipped access costs the draw alone. A
// goroutine's writes of one word in one epoch, all but the first of them
// answered by the cache, are each counted: about one a write (fresaSkip),
// where drawing in accessSlow alone counted the first.
func TestFresaDrawsBeforeCache(t *testing.T) {
	withFresa(t, func() {
		x := (*uint64)(heapObject())
		site := newSite()
		var c Ctx
		const n = 1000
		for range n {
			*W(x, site, &c) += 1
		}
		// The count's spread at n is about sqrt(n·7) (group 3 keeps
		// one access in 8 and adds 8), so n/4 is far below it.
		if got := fresa.counts[fresaIndex(site)].Load(); got < n/4 {
			t.Errorf("count %d after %d writes in one epoch, want about %d", got, n, n)
		}
	})
}

// TestFresaNoFalseRace hands a variable back and forth between two
// goroutines (run one after the other, through channels the detector does
// not see) under a lock, every access at a site hot enough that almost
// all are skipped: the accesses that are recorded are ordered by the
// lock, whatever was skipped between them, and no race is reported. The
// same trace without the lock, at sites kept cold, is reported.
func TestFresaNoFalseRace(t *testing.T) {
	withFresa(t, func() {
		x := heapObject()
		hot0, hot1 := newSite(), newSite()
		for _, s := range []uint64{hot0, hot1} {
			fresa.counts[fresaIndex(s)].Store(fresaCold << 20)
		}
		before := Races()
		var mu sync.Mutex
		for range 200 {
			for _, site := range []uint64{hot0, hot1} {
				inGoroutine(func() {
					for range 100 {
						Lock(&mu)
						Write(x, 8, site)
						Read(x, 8, site)
						Unlock(&mu)
					}
				})
			}
		}
		if got := Races() - before; got != 0 {
			t.Errorf("%d races reported on accesses ordered by a lock", got)
		}

		y := heapObject()
		cold0, cold1 := newSite(), newSite()
		inGoroutine(func() { Write(y, 8, cold0) }) // waited for unseen
		Write(y, 8, cold1)
		if Races() == before {
			t.Errorf("unordered writes at cold sites not reported")
		}
	})
}

// TestProfileRoundTrip writes the profile of a registered package and
// starts a new table from it: the sites' counters come back, scaled from
// the rate they were counted at to the rate of the run that starts from
// them, and unknown or malformed profiles are refused with their line.
func TestProfileRoundTrip(t *testing.T) {
	withFresa(t, func() {
		const pkg = 0x5eed0001
		table := "/src/a.go:3:4\tp.f\n/src/a.go:5:6\tp.g\n/src/b.go:7:8\tp.h\n"
		RegisterSites(pkg, table)
		site := func(i int) uint64 { return uint64(pkg)<<32 | uint64(i) }
		fresa.counts[fresaIndex(site(1))].Store(100)
		fresa.counts[fresaIndex(site(3))].Store(7)
		// Counted at rate 0.5: the profile estimates twice the counts.
		prof := string(appendProfile(nil, 0.5))
		for _, want := range []string{"racegen profile v2\nruns 1\n", "200\t/src/a.go:3:4\tp.f\n", "14\t/src/b.go:7:8\tp.h\n"} {
			if !strings.Contains(prof, want) {
				t.Errorf("profile lacks %q:\n%s", want, prof)
			}
		}
		if strings.Contains(prof, "p.g") {
			t.Errorf("profile names a site without accesses:\n%s", prof)
		}
		if zero := string(appendProfile(nil, 0)); zero != "racegen profile v2\nruns 1\n" {
			t.Errorf("profile at rate 0 = %q, want no site", zero)
		}

		saved := profileIn
		defer func() { profileIn = saved }()

		for _, tt := range []struct {
			src  string
			rate float64
			want map[int]uint32
		}{
			// Two runs' worth, at rate 1: the counters start at their mean.
			{"racegen profile v2\nruns 2\n200\t/src/a.go:3:4\tp.f\n14\t/src/b.go:7:8\tp.h\n", 1, map[int]uint32{1: 100, 2: 0, 3: 7}},
			// At rate 0.1, at a tenth of it (rounded).
			{"racegen profile v2\nruns 2\n200\t/src/a.go:3:4\tp.f\n14\t/src/b.go:7:8\tp.h\n", 0.1, map[int]uint32{1: 10, 2: 0, 3: 1}},
			// The round trip: written at 0.5, started at 0.5.
			{prof, 0.5, map[int]uint32{1: 100, 2: 0, 3: 7}},
			// Beyond what a counter holds: it stops at 2^31.
			{"racegen profile v2\nruns 1\n99999999999\t/src/a.go:3:4\tp.f\n", 1, map[int]uint32{1: 1 << 31}},
		} {
			for i := range fresa.counts {
				fresa.counts[i].Store(0)
			}
			profileIn = nil
			if err := loadProfile("p", tt.src, tt.rate); err != nil {
				t.Fatal(err)
			}
			applyProfile(pkg, table)
			for i, want := range tt.want {
				if got := fresa.counts[fresaIndex(site(i))].Load(); got != want {
					t.Errorf("at rate %g, site %d starts at %d, want %d (profile %q)", tt.rate, i, got, want, tt.src)
				}
			}
		}
	})
	for _, tt := range []struct{ src, msg string }{
		{"", "not a racegen profile"},
		{"racegen profile v3\nruns 1\n", "not a racegen profile"},
		{"racegen profile v1\nruns 1\n12\t/a.go:1:1\tf\n", "an earlier racegen"},
		{"racegen profile v2\nruns 0\n", "p:2: want \"runs N\""},
		{"racegen profile v2\nruns 1\n12 /a.go:1:1\tf\n", "p:3: want COUNT"},
		{"racegen profile v2\nruns 1\n-1\t/a.go:1:1\tf\n", "p:3: want COUNT"},
	} {
		saved := profileIn
		err := loadProfile("p", tt.src, 1)
		profileIn = saved
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("loadProfile(%q) = %v, want an error with %q", tt.src, err, tt.msg)
		}
	}
}

// TestFresaRuns checks FRESA's decisions for whole runs of versioned code
// (fresaSkipRun): a run of a copy whose coldest site is in group m is
// kept with probability 2^-m, and in kept runs each access of a site of
// group j is drawn at 2^-(j-m), so that over all runs each of the copy's
// accesses is recorded with probability 2^-j, as FRESA records any other;
// a site of another copy is drawn at 2^-j whatever the run; a copy with a
// cold site is never skipped; and a decision lasts one sampling period.
func TestFresaRuns(t *testing.T) {
	withFresa(t, func() {
		setSampling(t, true)
		// A copy of three sites in groups 3, 5 and 4, and a site of
		// another copy in group 5.
		base := newSite() &^ SiteGlobal
		groups := []uint{3, 5, 4}
		key := base | uint64(len(groups))<<runKeyCount
		other := base + uint64(len(groups))
		set := func(site uint64, j uint) {
			fresa.counts[fresaIndex(site)].Store(fresaCold<<(2*j) - 1)
		}
		prepare := func() {
			for k, j := range groups {
				set(base+uint64(k), j)
			}
			set(other, 5)
		}
		inGoroutine(func() {
			t0 := current()
			const n = 100000
			kept, recorded, otherKept := 0, make([]int, len(groups)), 0
			for range n {
				prepare()
				if fresaSkipRun(key) {
					continue
				}
				kept++
				for k := range groups {
					s := base + uint64(k)
					if !fresaSkip(s, t0.draws.next(), t0.runDiscount(s)) {
						recorded[k]++
					}
				}
				if !fresaSkip(other, t0.draws.next(), t0.runDiscount(other)) {
					otherKept++
				}
			}
			within := func(what string, got, trials int, p float64) {
				t.Helper()
				mean, sd := float64(trials)*p, math.Sqrt(float64(trials)*p*(1-p))
				if d := float64(got) - mean; d > 5*sd+1 || d < -5*sd-1 {
					t.Errorf("%s: %d of %d, want about %.0f", what, got, trials, mean)
				}
			}
			within("runs kept", kept, n, 1.0/8)
			for k, j := range groups {
				within(fmt.Sprintf("accesses of the site in group %d recorded", j), recorded[k], n, 1/float64(uint(1)<<j))
			}
			within("accesses of another copy's site in group 5 recorded, in kept runs", otherKept, kept, 1.0/32)

			// A decision lasts its sampling period.
			prepare()
			for fresaSkipRun(key) {
				prepare()
			}
			if d := t0.runDiscount(base); d != 3 {
				t.Errorf("in a kept run, the discount of its site is %d, want 3", d)
			}
			switchSampling(false)
			switchSampling(true)
			if d := t0.runDiscount(base); d != 0 {
				t.Errorf("in the next sampling period, the discount of a site of the last run is %d, want 0", d)
			}

			// A cold site keeps every run's hooks.
			prepare()
			set(base+1, 0)
			for range 1000 {
				if fresaSkipRun(key) {
					t.Fatalf("a run of a copy with a cold site was skipped")
				}
			}
		})
	})
}
