// Many is racegen's corpus for comparing its detection modes (make
// eval-rate, the section on modes): 36 data races, nine shapes of access
// in four timings, each race on its own variables. A line that takes part
// in a race ends in the comment "// race: NAME", as in ../main.go; a name
// is TIMING-SHAPE.
//
// Shapes: a package-level counter incremented by both goroutines
// (global-rmw), a package-level string written by both (global-ww), a
// package-level pointer published by one and read by the other
// (global-ptr), a heap struct's field written and read (field-wr), a slice
// element written by both (slice-ww), a map written and read (map-wr;
// in the loop timings, where Go's own check would end the program with
// "concurrent map read and map write", a heap struct's string field
// written by both, field-ww, instead), a
// captured local read and written (captured-rw), an array element inside
// a heap struct read and written (array-rw), and a method updating its
// receiver's field, called by both (method-rmw).
//
// Timings:
//
//   - once-sync: each access runs once; the first goroutine synchronizes
//     (WaitGroup.Done) right after its access, before the second access.
//     A happens-before race, but not a clock race (CRSampler's Definition
//     1 needs the first goroutine's clock unchanged at the second access).
//   - once-hold: each access runs once; the first goroutine keeps working
//     without synchronizing until after the second access: a clock race.
//   - loop: two goroutines run concurrently for a fixed time, each making
//     its access in a loop with no synchronization: the race occurs many
//     times per run, as an unprotected statistics counter's does.
//   - loop-sync: as loop, but every iteration also locks and unlocks a
//     mutex private to its goroutine, so each goroutine synchronizes
//     between any two of its accesses (without ordering them against the
//     other goroutine's).
//
// The races run one after another; between two, main collects garbage and
// waits longer than a watchpoint's default time limit, so that what one
// race leaves behind (metadata, armed watchpoints) does not affect the
// next.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

const (
	// gap is how long main waits between a once race's first and second
	// access.
	gap = 2 * time.Millisecond
	// hold is how long a once-hold race's first goroutine keeps working
	// after its access before it synchronizes.
	hold = 3 * gap
	// window is how long the two goroutines of a loop race run.
	window = 10 * time.Millisecond
	// settle is the pause between races: longer than the 15 ms time limit
	// of the static modes' watchpoints.
	settle = 20 * time.Millisecond
)

// A timing is when a race's two accesses happen.
type timing int

const (
	onceSync timing = iota
	onceHold
	loopFree
	loopSync
)

// A race is one entry of the corpus: first runs in one goroutine, second
// in another, as its timing says.
type race struct {
	timing        timing
	first, second func()
}

// run runs r's accesses and waits for both goroutines.
func (r race) run() {
	var wg sync.WaitGroup
	wg.Add(2)
	switch r.timing {
	case onceSync, onceHold:
		go func() {
			defer wg.Done()
			r.first()
			if r.timing == onceHold {
				busy(hold) // no synchronization: the clock stays
			}
		}()
		time.Sleep(gap)
		go func() {
			defer wg.Done()
			r.second()
		}()
	case loopFree, loopSync:
		for _, f := range []func(){r.first, r.second} {
			go func() {
				defer wg.Done()
				var own sync.Mutex // private to this goroutine
				n := 0
				for end := time.Now().Add(window); time.Now().Before(end); {
					if r.timing == loopSync {
						own.Lock()
						n++
						own.Unlock()
					}
					f()
				}
			}()
		}
	}
	wg.Wait()
}

// busy spends about d without synchronizing.
func busy(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

// Package-level variables of the global-* races, one set per timing.
var (
	counterOnceSync int
	nameOnceSync    string
	confOnceSync    *config
	counterOnceHold int
	nameOnceHold    string
	confOnceHold    *config
	counterLoop     int
	nameLoop        string
	confLoop        *config
	counterLoopSync int
	nameLoopSync    string
	confLoopSync    *config
)

type config struct{ limit int }

type state struct {
	hits  int
	owner string
	bins  [8]int
}

type tally struct{ n int }

// addOnceSync is the method of the once-sync-method-rmw race.
func (a *tally) addOnceSync(d int) {
	a.n += d // race: once-sync-method-rmw
}

// addOnceHold is the method of the once-hold-method-rmw race.
func (a *tally) addOnceHold(d int) {
	a.n += d // race: once-hold-method-rmw
}

// addLoop is the method of the loop-method-rmw race.
func (a *tally) addLoop(d int) {
	a.n += d // race: loop-method-rmw
}

// addLoopSync is the method of the loop-sync-method-rmw race.
func (a *tally) addLoopSync(d int) {
	a.n += d // race: loop-sync-method-rmw
}

func main() {
	var races []race
	var sinks []func() int // keep what the reads read

	// Timing once-sync.
	{
		st := &state{}
		buf := make([]int, 8)
		m := map[string]int{"k": 0}
		x := 0
		ta := &tally{}
		var seenConf bool
		var seenHits, seenM, seenX, seenBin int
		races = append(races,
			race{onceSync,
				func() { counterOnceSync++ }, // race: once-sync-global-rmw
				func() { counterOnceSync++ }, // race: once-sync-global-rmw
			},
			race{onceSync,
				func() { nameOnceSync = "alice" }, // race: once-sync-global-ww
				func() { nameOnceSync = "bob" },   // race: once-sync-global-ww
			},
			race{onceSync,
				func() { confOnceSync = &config{limit: 1} }, // race: once-sync-global-ptr
				func() { seenConf = confOnceSync != nil },   // race: once-sync-global-ptr
			},
			race{onceSync,
				func() { st.hits = 1 },        // race: once-sync-field-wr
				func() { seenHits = st.hits }, // race: once-sync-field-wr
			},
			race{onceSync,
				func() { buf[3] = 1 }, // race: once-sync-slice-ww
				func() { buf[3] = 2 }, // race: once-sync-slice-ww
			},
			race{onceSync,
				func() { m["k"] = 1 },     // race: once-sync-map-wr
				func() { seenM = m["k"] }, // race: once-sync-map-wr
			},
			race{onceSync,
				func() { seenX = x }, // race: once-sync-captured-rw
				func() { x = 1 },     // race: once-sync-captured-rw
			},
			race{onceSync,
				func() { seenBin = st.bins[2] }, // race: once-sync-array-rw
				func() { st.bins[2] = 5 },       // race: once-sync-array-rw
			},
			race{onceSync,
				func() { ta.addOnceSync(1) },
				func() { ta.addOnceSync(2) },
			},
		)
		sinks = append(sinks, func() int {
			n := seenHits + seenM + seenX + seenBin + ta.n + buf[3] + len(m)
			if seenConf {
				n++
			}
			return n
		})
	}

	// Timing once-hold.
	{
		st := &state{}
		buf := make([]int, 8)
		m := map[string]int{"k": 0}
		x := 0
		ta := &tally{}
		var seenConf bool
		var seenHits, seenM, seenX, seenBin int
		races = append(races,
			race{onceHold,
				func() { counterOnceHold++ }, // race: once-hold-global-rmw
				func() { counterOnceHold++ }, // race: once-hold-global-rmw
			},
			race{onceHold,
				func() { nameOnceHold = "alice" }, // race: once-hold-global-ww
				func() { nameOnceHold = "bob" },   // race: once-hold-global-ww
			},
			race{onceHold,
				func() { confOnceHold = &config{limit: 1} }, // race: once-hold-global-ptr
				func() { seenConf = confOnceHold != nil },   // race: once-hold-global-ptr
			},
			race{onceHold,
				func() { st.hits = 1 },        // race: once-hold-field-wr
				func() { seenHits = st.hits }, // race: once-hold-field-wr
			},
			race{onceHold,
				func() { buf[3] = 1 }, // race: once-hold-slice-ww
				func() { buf[3] = 2 }, // race: once-hold-slice-ww
			},
			race{onceHold,
				func() { m["k"] = 1 },     // race: once-hold-map-wr
				func() { seenM = m["k"] }, // race: once-hold-map-wr
			},
			race{onceHold,
				func() { seenX = x }, // race: once-hold-captured-rw
				func() { x = 1 },     // race: once-hold-captured-rw
			},
			race{onceHold,
				func() { seenBin = st.bins[2] }, // race: once-hold-array-rw
				func() { st.bins[2] = 5 },       // race: once-hold-array-rw
			},
			race{onceHold,
				func() { ta.addOnceHold(1) },
				func() { ta.addOnceHold(2) },
			},
		)
		sinks = append(sinks, func() int {
			n := seenHits + seenM + seenX + seenBin + ta.n + buf[3] + len(m)
			if seenConf {
				n++
			}
			return n
		})
	}

	// Timing loop.
	{
		st := &state{}
		buf := make([]int, 8)
		m := map[string]int{"k": 0}
		x := 0
		ta := &tally{}
		var seenConf bool
		var seenHits, seenM, seenX, seenBin int
		races = append(races,
			race{loopFree,
				func() { counterLoop++ }, // race: loop-global-rmw
				func() { counterLoop++ }, // race: loop-global-rmw
			},
			race{loopFree,
				func() { nameLoop = "alice" }, // race: loop-global-ww
				func() { nameLoop = "bob" },   // race: loop-global-ww
			},
			race{loopFree,
				func() { confLoop = &config{limit: 1} }, // race: loop-global-ptr
				func() { seenConf = confLoop != nil },   // race: loop-global-ptr
			},
			race{loopFree,
				func() { st.hits = 1 },        // race: loop-field-wr
				func() { seenHits = st.hits }, // race: loop-field-wr
			},
			race{loopFree,
				func() { buf[3] = 1 }, // race: loop-slice-ww
				func() { buf[3] = 2 }, // race: loop-slice-ww
			},
			// Go's own check would end the program (fatal error:
			// concurrent map read and map write) if a map were
			// accessed in these loops: a string field instead.
			race{loopFree,
				func() { st.owner = "alice" }, // race: loop-field-ww
				func() { st.owner = "bob" },   // race: loop-field-ww
			},
			race{loopFree,
				func() { seenX = x }, // race: loop-captured-rw
				func() { x = 1 },     // race: loop-captured-rw
			},
			race{loopFree,
				func() { seenBin = st.bins[2] }, // race: loop-array-rw
				func() { st.bins[2] = 5 },       // race: loop-array-rw
			},
			race{loopFree,
				func() { ta.addLoop(1) },
				func() { ta.addLoop(2) },
			},
		)
		sinks = append(sinks, func() int {
			n := seenHits + seenM + seenX + seenBin + ta.n + buf[3] + len(m)
			if seenConf {
				n++
			}
			return n
		})
	}

	// Timing loop-sync.
	{
		st := &state{}
		buf := make([]int, 8)
		m := map[string]int{"k": 0}
		x := 0
		ta := &tally{}
		var seenConf bool
		var seenHits, seenM, seenX, seenBin int
		races = append(races,
			race{loopSync,
				func() { counterLoopSync++ }, // race: loop-sync-global-rmw
				func() { counterLoopSync++ }, // race: loop-sync-global-rmw
			},
			race{loopSync,
				func() { nameLoopSync = "alice" }, // race: loop-sync-global-ww
				func() { nameLoopSync = "bob" },   // race: loop-sync-global-ww
			},
			race{loopSync,
				func() { confLoopSync = &config{limit: 1} }, // race: loop-sync-global-ptr
				func() { seenConf = confLoopSync != nil },   // race: loop-sync-global-ptr
			},
			race{loopSync,
				func() { st.hits = 1 },        // race: loop-sync-field-wr
				func() { seenHits = st.hits }, // race: loop-sync-field-wr
			},
			race{loopSync,
				func() { buf[3] = 1 }, // race: loop-sync-slice-ww
				func() { buf[3] = 2 }, // race: loop-sync-slice-ww
			},
			// Go's own check would end the program (fatal error:
			// concurrent map read and map write) if a map were
			// accessed in these loops: a string field instead.
			race{loopSync,
				func() { st.owner = "alice" }, // race: loop-sync-field-ww
				func() { st.owner = "bob" },   // race: loop-sync-field-ww
			},
			race{loopSync,
				func() { seenX = x }, // race: loop-sync-captured-rw
				func() { x = 1 },     // race: loop-sync-captured-rw
			},
			race{loopSync,
				func() { seenBin = st.bins[2] }, // race: loop-sync-array-rw
				func() { st.bins[2] = 5 },       // race: loop-sync-array-rw
			},
			race{loopSync,
				func() { ta.addLoopSync(1) },
				func() { ta.addLoopSync(2) },
			},
		)
		sinks = append(sinks, func() int {
			n := seenHits + seenM + seenX + seenBin + ta.n + buf[3] + len(m)
			if seenConf {
				n++
			}
			return n
		})
	}

	for _, r := range races {
		r.run()
		runtime.GC()
		time.Sleep(settle)
	}
	sum := counterOnceSync + counterOnceHold + counterLoop + counterLoopSync
	for _, f := range sinks {
		sum += f()
	}
	// The sum depends on the interleavings; print only that the run
	// finished, so that every mode prints the same.
	_ = sum
	fmt.Fprintln(os.Stdout, "done", len(races), "races")
}
