package runtime

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// FRESA, frequency-sensitive sampling (seeds/004; docs/fresa.md): within
// a sampling period, most of the cost is spent on a few hot sites, loops
// over the same memory, whose races tend to be found and fixed first.
// FRESA counts the accesses of each site in sampling periods and puts a
// site into group j by its count: group 0 for its first fresaCold
// accesses, then one group more for each fourfold, up to fresaMaxGroup.
// An access of a site in group j is recorded and checked with
// probability 2^-j, and otherwise skipped as if it had happened outside
// the sampling period and its race check were not made.
//
// Skipping an access can lose a race, never invent one: the clocks of
// synchronization are kept as without FRESA, and a report pairs two
// accesses that were made, recorded, and are unordered by those clocks.
// An access skipped between them removes an entry FastTrack would have
// written, so a later access may be compared with an older one than
// FastTrack would compare it with; that pair is unordered too, and is a
// race (docs/runtime.md, "FRESA", has the argument and its tests).
//
// An access in a sampling period is counted and drawn before anything
// else is done for it: R and W's in hookAccess, before the epoch cache is
// asked, the other hooks' in accessSlow. A skipped access then costs the
// draw alone. (Counting only the accesses that reached accessSlow, as
// FRESA first did, took every skipped access through the epoch cache and
// the calls to accessSlow first: msort's benchmark at rate 1 with FRESA
// ran at 17.8 times its uninstrumented wall time, and at 9.75 drawn
// first.) Outside sampling periods nothing is counted or skipped.
//
// The counts live in a table of fresaTableSize counters indexed by a hash
// of the site, so that an access costs a load, a random draw and, once
// per 2^j accesses, an atomic add (fresaSkip), and no lookup;
// sites that share a counter share a group, which can only lower their
// probability, by as much as the other sites' accesses push it up.

const (
	fresaTableBits = 16
	fresaTableSize = 1 << fresaTableBits
	// fresaCold is the number of accesses a site makes in group 0.
	fresaCold = 16
	// fresaMaxGroup bounds the group, so that the hottest site is still
	// recorded once in 2^fresaMaxGroup accesses.
	fresaMaxGroup = 12
)

var fresa struct {
	// on says that accesses are skipped by group (option fresa).
	on bool
	// count says that accesses are counted: FRESA is on, or the run
	// writes a profile (option profile_out).
	count  bool
	counts [fresaTableSize]atomic.Uint32
}

// fresaIndex returns the counter of site. The bits that describe an
// access (siteFlags) are not part of a site's identity in profiles, so
// not here either.
func fresaIndex(site uint64) uint32 {
	return uint32((siteID(site) * 0x9e3779b97f4a7c15) >> (64 - fresaTableBits))
}

// fresaGroup returns the group of a site whose counter is n: 0 up to
// fresaCold, and j ≥ 1 for n in (fresaCold·4^(j-1), fresaCold·4^j].
func fresaGroup(n uint32) uint {
	if n <= fresaCold {
		return 0
	}
	j := uint(bits.Len32((n-1)/fresaCold)+1) / 2
	return min(j, fresaMaxGroup)
}

// fresaNext holds, at bits.Len32(n), the group of the access that a site
// whose counter is n makes next, fresaGroup(n+1): the groups change
// where n is a power of two, so n's length in bits decides it, and
// fresaSkip finds it with one instruction and a load where fresaGroup
// takes a dozen.
var fresaNext = func() (g [33]uint8) {
	for l := range g {
		n := uint32(0)
		if l > 0 {
			n = 1 << (l - 1)
		}
		g[l] = uint8(fresaGroup(n + 1))
	}
	return g
}()

// fresaSkip counts an access of site in a sampling period and reports
// whether FRESA skips it; r is a random draw from the goroutine's own
// generator (thread.draws).
//
// Where the counter is written matters more than what is counted: a hot
// site is hot in every thread, and an atomic add on its counter from each
// would bounce the counter's cache line between them at every access. So
// an access that is kept adds 2^j, and a skipped one nothing: the counter
// grows by one per access on average, and is written once per 2^j
// accesses. Without FRESA (a run that only writes its profile), every
// access adds one.
//
// The draw is a cheap generator's, not the runtime's ChaCha8: FRESA
// draws for nearly every access of a sampling period, and with ChaCha8
// the draws were most of what FRESA cost. msort's BenchmarkSort at rate
// 1 with fresa=1 (callgrind, -test.benchtime 2x, one CPU): 7,657 million
// instructions, 2,185 million of them in runtime.rand and its ChaCha8
// blocks; 5,952 million with cheapRand, 387 million in it. Wall time, 4
// alternating rounds of -test.benchtime 10x: 181-203 ms an operation
// before, 130-141 after. Then the caller drew, from the goroutine's own
// generator (thread.draws), and fresaSkip, calling
// nothing and finding the group in a table (fresaNext), came within the
// inliner's budget: 4,864 million instructions against 5,850 million
// (4,704 once hookSlow filled the Ctx before drawing).
//
// d is the group of the run of versioned code the access is part of,
// which FRESA kept with probability 2^-d (fresaSkipRun), 0 for any other
// access: such an access is drawn at 2^-(j-d), so that it is recorded
// with probability 2^-j in all, and still adds 2^j when kept.
func fresaSkip(site uint64, r uint32, d uint8) bool {
	c := &fresa.counts[fresaIndex(site)]
	n := c.Load()
	j := fresaNext[bits.Len32(n)] & 15 // ≤ fresaMaxGroup: shifts need no test
	if !fresa.on {
		j = 0 // counting for a profile only: every access is kept
	}
	if r&(1<<(j-min(j, d))-1) != 0 {
		return true
	}
	if n < 1<<31 { // the hottest group is reached long before; no wrap
		c.Add(1 << j)
	}
	return false
}

// FRESA skips whole runs of versioned loops that run no instrumented
// code but their own: they call nothing but conversions, builtins and
// functions that touch no memory, which have no hooks
// (analysis.Computations.Leaf; instrument/version.go). The instrumenter
// gives them IdleRun instead of Idle. In a sampling period, every
// access of a hot loop's instrumented copy cost two calls into the
// runtime and a draw before FRESA skipped it: msort's merge and
// insertion loops, run hundreds of thousands of times a sort, spent 40%
// of its instructions at rate 1 with FRESA in hookFresa.
//
// A run of such a copy is skipped, the plain copy running instead, with
// probability 1-2^-m, m being the coldest group among the copy's sites
// (their counters, as fresaSkip reads them), and in a run that is kept
// each access of a site of group j is drawn at 2^-(j-m) (fresaSkip's d):
// every access is recorded with probability 2^-j, as FRESA records any
// other, and each counter still grows by one an access on average. A
// copy with a cold site (m = 0) always runs with its hooks. The copy's
// sites are numbered consecutively, which the run's key gives: the
// package's key and the first site's index, as in a site, and the count
// of sites at bits 24 to 30 (runKeyCount). Skipping a run loses what
// skipping its accesses one by one would lose and nothing else: the loop
// has no synchronization, so no edge of happens-before is skipped. And
// since the loop runs no other instrumented code, no other run can start
// on the goroutine while it runs, so the decision the goroutine keeps
// (thread.run) is the loop's until the loop ends; after it, it applies to the copy's sites
// only, which run only in the copy's next run, decided anew. A decision
// is of one sampling period: a run begun before the period, or outside
// FRESA's draws, draws its accesses by their groups alone.
//
// (An earlier version, reverted, counted the copies' runs apart and drew
// the runs by that count and the accesses of kept runs by their sites'
// counts of kept runs only: a cold site in a hot loop, the rare case
// FRESA is for, was recorded with the loop's probability instead of at
// the full rate.)

// runKeyCount is the position of a run key's count of sites.
const runKeyCount = 24

// A fresaRun is the run of a versioned copy that FRESA kept: its sites,
// first to first+n-1, are drawn at 2^-(j-m) while period is the sampling
// period.
type fresaRun struct {
	first  uint64
	n      uint32
	m      uint8
	period uint32
}

// runDiscount returns the group of the kept run that the access at site
// is part of, or 0 (fresaSkip's d).
func (t *thread) runDiscount(site uint64) uint8 {
	r := &t.run
	if siteID(site)-r.first < uint64(r.n) && r.period == samplingPeriod.Load() {
		return r.m
	}
	return 0
}

// IdleRun is Idle for a versioned loop that runs no instrumented code
// but its own (see above), whose instrumented copy's sites run's key
// names (see runKeyCount): in a sampling period of a FRESA run it also
// reports true, and the plain copy runs, for the runs that FRESA skips
// (fresaSkipRun). It spells out gateOpen's test, and sampling's Load as
// a load of the word it holds, to stay within the inliner's budget, as
// Idle does.
func IdleRun(run uint64) bool {
	return atomic.LoadInt64(&gate) == 0 || fresa.on && atomic.LoadUint32((*uint32)(unsafe.Pointer(&sampling))) != 0 && fresaSkipRun(run)
}

// fresaSkipRun decides, in a sampling period of a FRESA run, whether the
// goroutine skips this run of the versioned copy whose sites run names,
// and if it keeps it, remembers the decision for the draws of its
// accesses.
//
//go:noinline
func fresaSkipRun(run uint64) bool {
	t := current()
	if t == nil {
		return false
	}
	t.run.n = 0
	first := run &^ (0x7f << runKeyCount)
	n := uint32(run>>runKeyCount) & 0x7f
	m := uint8(fresaMaxGroup)
	for k := range uint64(n) {
		c := fresa.counts[fresaIndex(first+k)].Load()
		if m = min(m, fresaNext[bits.Len32(c)]&15); m == 0 {
			return false // a cold site: the run keeps its hooks
		}
	}
	if t.draws.next()&(1<<m-1) != 0 {
		return true
	}
	t.run = fresaRun{first: first, n: n, m: m, period: samplingPeriod.Load()}
	return false
}
