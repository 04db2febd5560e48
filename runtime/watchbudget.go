package runtime

import "sync"

// The arming budget bounds the time that hardware watchpoints spend in
// system calls. Arming a watchpoint re-aims its events on every thread
// and processor, one ioctl per event, and disarming it does the same:
// 140-160us each in fasthttp's test binary (7 threads, 2 processors, 10
// events a slot), and each ioctl interrupts the other processors
// (smp_call_function_single in perf profiles). A program whose sampled
// sites run often armed each slot again as soon as it was free, up to
// once per time limit per slot: 270 armings a second at the default
// 15ms, up to 8% of a run spent in the kernel for nothing else. So the
// time of every arming and disarming is charged to a debt, which the
// running program pays off at watch_budget (defaultWatchBudget unless
// the option sets it) of the wall time that passes; a slot freed while
// the debt is above the burst (armBurst) rests until it is back within
// it, and a resting slot drops samples like a busy one (hwFull,
// cannotArm). A run that arms rarely never rests a slot. The rest gives
// the program fewer watchpoints, so it can miss a race, never invent
// one.

// defaultWatchBudget is the share of wall time that arming and disarming
// may take, over a run: half the build's sampling rate, and at least
// 0.5%. A user who samples more sites asks for more detection at more
// cost, and a fixed 0.5% halved what a build at rate 1 found: the
// collide build of testdata/evalrace/many at rate 1 reported 29 races in
// five runs with it, 60 without a bound; the static build 65 and 78.
const defaultWatchBudget = max(0.005, buildRate/2)

// burstWindow is the wall time whose budget a run may spend at once:
// the debt allowed before slots rest is the budget of its first
// burstWindow (armBurst), so that a short run, or the start of a long
// one, arms some watchpoints before it has paid for them.
//
// It was a fixed 20ms, about 60 armings and disarmings, until that was
// found to be most of what static builds at 1% cost in fasthttp's
// benchmarks: ServerGet10ReqPerConn runs 0.15s, its sampled sites arm
// inside its server's critical sections, and the burst alone was 13% of
// its time (1.15x against the uninstrumented build at -seed=2, 1.00x
// with a 2ms burst). At the default budget at 1%, 0.5%, the burst is
// now 2ms; at rate 1, 200ms.
const burstWindow = 400 * millisecond

// armBurst returns the debt allowed before slots rest.
func armBurst() float64 { return opts.watchBudget * burstWindow }

var armDebt struct {
	mu   sync.Mutex
	debt float64 // ns of system calls not yet paid off
	at   int64   // when it was last paid down (nanotime)
}

// payDown brings the debt up to date at now; the caller holds armDebt.mu.
func payDown(now int64) {
	d := &armDebt
	if d.at != 0 && now > d.at {
		d.debt = max(0, d.debt-float64(now-d.at)*opts.watchBudget)
	}
	d.at = max(d.at, now)
}

// charged runs op, an arming or a disarming, and charges its time to the
// debt.
func charged(op func() error) error {
	start := nanotime()
	err := op()
	done := nanotime()
	chargeArming(done-start, done)
	return err
}

// chargeArming adds to the debt the cost, in ns, of an arming or a
// disarming that ended at now.
func chargeArming(cost, now int64) {
	if opts.watchBudget == 0 {
		return
	}
	armDebt.mu.Lock()
	payDown(now)
	armDebt.debt += float64(cost)
	armDebt.mu.Unlock()
}

// armingRest returns when a slot freed at now may arm again: now while
// the debt is within the burst, or else when it will be.
func armingRest(now int64) int64 {
	if opts.watchBudget == 0 {
		return now
	}
	armDebt.mu.Lock()
	defer armDebt.mu.Unlock()
	payDown(now)
	over := armDebt.debt - armBurst()
	if over <= 0 {
		return now
	}
	// Rounded up: the slot rests until the debt is within the burst, not
	// a nanosecond before. Truncated, the rest depended on the last bit
	// of over, which linux/arm64, where the compiler fuses armBurst's
	// multiply into the subtraction, computes otherwise than amd64:
	// TestWatchBudgetRest's 100 ms rest was 99 ms under qemu-aarch64.
	rest := over / opts.watchBudget
	n := int64(rest)
	if float64(n) < rest {
		n++
	}
	return now + n
}
