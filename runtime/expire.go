package runtime

// Below rate 1, the history a sampling period records is forgotten once
// opts.history periods without sampling have followed it. Pacer keeps
// history until an access discards it or its object dies, and here until
// a GC cycle ends it (heap.go); either way a single sampling period can
// leave the gate open for as long as the program runs between
// collections, and with it every hook's call and every synchronization
// operation's bookkeeping. At rate 0.001, where a sampling period comes
// about once a second, fasthttp's gate was open 504 of 744 ms after three
// sampling periods, and programs paid several times their own time for a
// thousandth of it sampled. Bounding the history by periods makes the time
// the gate is open proportional to the rate, and so the cost.
//
// The price is the races whose second access comes more than that many
// periods after the end of the sampling period of the first: they are
// found at rate 1, not below. A period is at least periodWork
// synchronization operations or periodTime of the program's time
// (controller.goal and controller.limit in pacer.go), so the default
// keeps history for at least defaultHistory times that. The
// history of synchronization objects (their clocks) is never forgotten:
// that would invent races.
//
// Forgetting is done by the sweeper, which removes every cell, channels'
// own histories included (chanhist.go); it stops
// if a sampling period has begun since the expiry was requested, so as
// not to drop what the new period records. Cells recorded concurrently
// with the sweep may survive it: they are forgotten at the next expiry or
// GC cycle.

// defaultHistory is the history option's default.
const defaultHistory = 8

// quietPeriods counts the periods without sampling that have ended since
// the last sampling period, to tell the pacer when history has outlived
// the limit (0 for none).
type quietPeriods struct {
	limit, n int
}

// end counts the end of a period, sampled (on) or not, and reports
// whether history is to be forgotten now: once, when the limit is
// reached.
func (q *quietPeriods) end(on bool) bool {
	if on {
		q.n = 0
		return false
	}
	q.n++
	return q.n == q.limit
}

// expireWake carries to the sweeper the count of sampling periods begun
// when an expiry was requested.
var expireWake = make(chan uint32, 1)

// requestExpiry asks the sweeper to forget all access history.
func requestExpiry() {
	select {
	case expireWake <- samplingPeriod.Load():
	default: // one is pending
	}
}

// expire forgets all access history, unless a sampling period has begun
// since the request that counted period sampling periods.
func expire(period uint32) {
	removeHistory(func(*cell) bool {
		return sampling.Load() == 0 && samplingPeriod.Load() == period
	})
}

// removeHistory forgets every access history for which drop reports
// true: the shadow's cells and channels' own histories (chanhist.go).
func removeHistory(drop func(*cell) bool) {
	shadow.removeIf(drop)
	syncs.forgetHistory(drop)
}
