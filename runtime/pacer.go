package runtime

import "sync/atomic"

// Pacer (Bond, Coons and McKinley, PLDI 2010) samples race detection by
// global periods: in a sampling period the detector runs FastTrack; in a
// non-sampling period it records nothing new, keeps checking and then
// discarding the metadata it already has, and lets vector clocks stand
// still. A race is reported when its first access falls in a sampling
// period, so each race is found with probability equal to the share of
// the program's work done while sampling: the rate r.
//
// Pacer switches periods at garbage collections, which stop every thread.
// Go offers no such pause to a library, so here a controller goroutine
// switches them, and each goroutine notices a new sampling period at its
// next sampled operation, when it advances its own clock (Pacer advances
// every clock at the start of a sampling period, so that accesses in it
// are not mistaken for ones ordered before an earlier release; advancing
// lazily, before the goroutine's first sampled operation, is equivalent).

// sampling is 1 during a sampling period. It is read on every access.
var sampling atomic.Uint32

// samplingPeriod counts the sampling periods started; a goroutine that
// has not yet seen the current one advances its clock first.
var samplingPeriod atomic.Uint32

// The controller measures the program's work in synchronization
// operations, as Pacer does: unlike time or allocation, their number does
// not depend on whether the detector is sampling. A period lasts until
// its goal of operations has passed (controller.goal: periodWork, or as
// many as the program makes in periodTime outside sampling periods if
// that is more, the same for both kinds of period), and each period
// samples with probability r, independently of the others: a race whose
// first access falls at any point of the program's work is then sampled
// with probability r (Pacer's guarantee). In a program that rarely
// synchronizes, periods end after periodTime instead; a sampling period,
// during which the program runs more slowly, then lasts periodTime times
// the measured slowdown, so that it covers as much work as a
// non-sampling period (Pacer corrects for the same effect in its section
// 4, where GC-delimited periods shrink while sampling).
//
// Counting costs an atomic add per operation, which doubled the price of
// an uncontended mutex and made pacing alone, at a rate that never
// samples, cost a third of some programs' time. So operations are counted
// only in sampling periods, where the detector's own work dwarfs the add,
// and in one non-sampling period of every measureEvery: there the count
// gives the program's pace, and the others end when that pace says the
// goal has passed. While the gate is closed and
// nothing is counted, a synchronization operation makes no call at all,
// as at rate 0.
const (
	periodWork   = 2000
	periodTime   = 2 * millisecond
	pacerTick    = 200 * microsecond
	measureEvery = 8
	maxSlow      = 100 // the largest slowdown the estimate may give
)

// syncOps counts synchronization operations, striped to keep goroutines
// on different cores from contending for one counter.
var syncOps stripedCount

// countingOn is 1 while synchronization operations are counted: in the
// periods the pacer measures.
var countingOn atomic.Uint32

func counting() bool { return countingOn.Load() != 0 }

// setCounting starts or stops the counting of synchronization operations.
func setCounting(on bool) {
	switch {
	case on && countingOn.Swap(1) == 0:
		atomic.AddInt64(&syncGate, 1)
	case !on && countingOn.Swap(0) != 0:
		atomic.AddInt64(&syncGate, -1)
	}
}

func countSync(t *thread) {
	if counting() {
		syncOps.add(uintptr(t.tid), 1)
	}
}

// countIdleSync counts an operation made while the gate was closed, which
// has no thread to pick a stripe by; the g pointer spreads goroutines
// instead (g structs are at least 256 bytes apart).
func countIdleSync() { syncOps.addByG(1) }

// countIdlePair counts both halves of an operation whose first half found
// the gate closed (a channel send or receive, an atomic load or
// read-modify-write) with one atomic add; its second half, if it finds
// the gate still closed, counts nothing. (If the gate opens or closes
// between the halves, the operation counts 3 or 1: the work measure is
// off by one at a transition of the gate, which is rare.)
//
//go:noinline
func countIdlePair() { syncOps.addByG(2) }

func totalSyncOps() uint64 { return syncOps.load() }

// startSampling sets the sampling state for rate r. Rates 0 and 1 need no
// controller.
func startSampling(r float64) {
	boundedHistory = r > 0 && r < 1
	switch {
	case r >= 1:
		switchSampling(true)
	case r <= 0:
		switchSampling(false)
	default:
		pacerRate, pacerReady = r, make(chan struct{})
		go racegenPacer()
		<-pacerReady
	}
}

// pace runs the sampling periods of rate r for the life of the program,
// drawing their random choices from rand, and closes ready once the first
// has begun.
func pace(r float64, rand func() uint64, ready chan<- struct{}) {
	c := controller{rate: r, rand: rand, slow: 1, quiet: quietPeriods{limit: opts.history}}
	// The first period is decided at once, so that the start of the
	// program is sampled with probability r like the rest of it.
	c.begin()
	close(ready)
	last, start := totalSyncOps(), nanotime()
	var work uint64
	var elapsed int64
	for {
		sleep(c.wait(work, elapsed))
		work, elapsed = totalSyncOps()-last, nanotime()-start
		if !c.ended(work, elapsed) {
			continue
		}
		if c.finish(work, elapsed) {
			requestExpiry()
		}
		c.begin()
		last, start = totalSyncOps(), nanotime()
		work, elapsed = 0, 0
	}
}

// A controller decides Pacer's periods: whether each samples and is
// measured, and when it ends.
type controller struct {
	rate float64
	rand func() uint64 // uniformly distributed random numbers

	on, measured bool
	n            uint64 // periods begun

	// slow estimates how much more slowly the program runs while
	// sampling, from the rates of synchronization operations in the two
	// kinds of period: an exponentially weighted average of their ratio.
	slow            float64
	rateOn, rateOff float64 // sync ops per second, smoothed
	quiet           quietPeriods
	// sparse says that the last measured period ended at its time limit
	// with too few operations to give a pace: the program rarely
	// synchronizes, and a period will not reach its goal before its
	// limit.
	sparse bool
}

// begin starts the next period.
func (c *controller) begin() {
	c.n++
	c.on = randFloat64(c.rand) < c.rate
	// Without a pace to go by, the period must count.
	c.measured = c.on || c.rateOff == 0 || c.n%measureEvery == 0
	setCounting(c.measured)
	switchSampling(c.on)
}

// ended reports whether the period has ended after work counted
// operations and elapsed nanoseconds.
//
// A period ends after its goal of operations, or at a time limit for
// programs that rarely synchronize, which a sampling period stretches by
// the measured slowdown. Until the slowdown is known, the limit is the
// largest slowdown allowed for: a sampling period cut at periodTime would
// cover a fraction of the work a period without sampling covers, and
// every race of a program too short for the estimate, a test binary say,
// would be found less often than the rate (2% at rate 0.1, for 100 tests
// whose races are each between the test and a goroutine it starts).
func (c *controller) ended(work uint64, elapsed int64) bool {
	limit, goal := c.limit(), c.goal()
	if !c.measured {
		// The goal at the measured pace.
		return seconds(elapsed)*c.rateOff >= float64(goal) || elapsed >= limit
	}
	return work >= goal || elapsed >= limit
}

// goal returns the operations a period lasts: periodWork, or as many as
// the program makes in periodTime outside sampling periods, whichever is
// more. Both kinds of period have the same goal, so that a sampling
// period covers as much of the program's work as one without sampling.
//
// A program that synchronizes often made its 2,000 operations in 150 µs
// (errgroup's BenchmarkGo), and the pacer woke for every period: at least
// 5,000 times a second, each wakeup taking a P from the program's
// goroutines. errgroup's test binary at RACEGEN_OPTIONS=rate=1e-9, 4
// alternating runs: 327-357 ns/op (one run 439) against 295-331 at rate
// 0, and 300-327 with a pacer that woke once a second. With the goal,
// fasthttp's ServerGet10ReqPerConn at rate=1e-9 (3 alternating runs):
// median 1,071 ns/op, against 1,198 without it and 1,037 at rate 0.
func (c *controller) goal() uint64 {
	return max(periodWork, uint64(c.rateOff*seconds(periodTime)))
}

// limit returns the period's time limit in nanoseconds.
func (c *controller) limit() int64 {
	switch {
	case c.rateOn == 0 || c.rateOff == 0:
		return maxSlow * periodTime
	case c.on:
		return int64(float64(periodTime) * c.slow)
	}
	return periodTime
}

// wait returns how long the pacer sleeps before it asks again whether the
// period has ended, after work counted operations and elapsed
// nanoseconds: until the time limit, or until the period's pace says its
// goal of operations will have passed, whichever comes first, and at
// least pacerTick. A counted period whose pace is not known polls, at
// intervals that grow with its length, unless the program is sparse: then
// it ends at its limit, and the pacer wakes for that alone.
//
// A wakeup is not free for the program: the pacer's goroutine needs a P,
// and in a program whose goroutines keep every P busy it takes one from
// them. matmul's test binary, whose two goroutines synchronize too rarely
// for a pace ever to be measured, run with rate=1e-9 (pacing that never
// samples), 3 alternating runs under perf stat: 1,599-1,710 context
// switches and 2.66-2.81 s of CPU when the pacer woke every pacerTick,
// 816-1,263 and 2.53-2.63 s with wait polling its unpaced periods; its
// benchmark still took 4.50 ms/op against 4.08 at rate 0. Left to sleep
// to the limit, as now: 856-934 context switches and 4.13-4.15 ms/op
// (rate 0: 807-826, 4.08-4.10), and 4.19-4.24 ms/op at rate 0.001.
func (c *controller) wait(work uint64, elapsed int64) int64 {
	left, goal := c.limit()-elapsed, c.goal()
	pace := c.rateOff
	if c.on {
		pace = c.rateOn
	}
	switch {
	case pace == 0 && c.sparse:
		// A program that synchronizes too rarely for a pace: its
		// periods end at their time limit.
	case pace == 0:
		// No pace to predict the end by: poll, less often the longer
		// the period has run, so that it runs past its goal by at
		// most a quarter of its time, sampling or not.
		left = min(left, elapsed/4)
	case work < goal:
		// The unmeasured period's end, or the measured one's expected
		// end at its pace (which ended checks against the count).
		if !c.measured {
			work = min(uint64(seconds(elapsed)*pace), goal)
		}
		left = min(left, int64(float64(goal-work)/pace*second))
	}
	return max(left, pacerTick)
}

// finish folds the period's measurements into the estimates and reports
// whether the access history is to be forgotten now (quietPeriods).
func (c *controller) finish(work uint64, elapsed int64) bool {
	if c.measured {
		// Too few operations to measure the pace make the program
		// sparse; enough give this period's pace.
		c.sparse = work < periodWork/4
		if !c.sparse {
			opsPerSec := float64(work) / seconds(elapsed)
			if c.on {
				c.rateOn = smooth(c.rateOn, opsPerSec)
			} else {
				c.rateOff = smooth(c.rateOff, opsPerSec)
			}
			if c.rateOn > 0 && c.rateOff > 0 {
				c.slow = min(max(c.rateOff/c.rateOn, 1), maxSlow)
			}
		}
	}
	return c.quiet.end(c.on)
}

// smooth folds x into the running average avg.
func smooth(avg, x float64) float64 {
	if avg == 0 {
		return x
	}
	return 0.8*avg + 0.2*x
}
