// Evalrace is racegen's proportionality workload (make eval-rate): ten
// data races, each of whose two accesses runs exactly once per run, in
// different shapes. A line that takes part in a race ends in the comment
// "// race: NAME"; the harness (bench/evalrate) maps reported lines to
// race names through those comments.
//
// The races run one after another. In each, the first goroutine makes its
// access, main sleeps a moment, and the second goroutine makes its own;
// nothing orders the two, so a full detector reports every race in every
// run. Between races main forces a garbage collection, so that a sampler
// whose periods begin at collections decides each race afresh.
package main

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

// gap is how long main waits between a race's first and second access.
const gap = 2 * time.Millisecond

var (
	counter  int    // global counter, read-modify-write in two goroutines
	lastUser string // global written by two goroutines
	config   = map[string]int{"limit": 1}
)

type stats struct {
	hits   int
	misses [4]int
}

// pair starts first, waits gap, then starts second, and waits for both.
func pair(first, second func()) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); first() }()
	time.Sleep(gap)
	go func() { defer wg.Done(); second() }()
	wg.Wait()
	runtime.GC()
}

func main() {
	// A long-lived worker that makes one access per task it is given.
	tasks := make(chan func())
	var workerDone sync.WaitGroup
	workerDone.Add(1)
	go func() {
		defer workerDone.Done()
		for f := range tasks {
			f()
		}
	}()

	// 1. Global counter: read-modify-write against read-modify-write.
	pair(func() {
		counter++ // race: global-counter
	}, func() {
		counter++ // race: global-counter
	})

	// 2. Global string: write against write.
	pair(func() {
		lastUser = "alice" // race: global-ww
	}, func() {
		lastUser = "bob" // race: global-ww
	})

	// 3. Struct field through a pointer: write against read.
	st := &stats{}
	var seen int
	pair(func() {
		st.hits = 1 // race: field-ptr
	}, func() {
		seen = st.hits // race: field-ptr
	})

	// 4. Slice element: write against write.
	s := make([]int, 8)
	pair(func() {
		s[3] = 1 // race: slice-elem
	}, func() {
		s[3] = 2 // race: slice-elem
	})

	// 5. Map: insertion against lookup.
	var limit int
	pair(func() {
		config["limit"] = 2 // race: map
	}, func() {
		limit = config["limit"] // race: map
	})

	// 6. A local variable captured by two closures: read against write.
	x := 0
	var y int
	pair(func() {
		y = x // race: captured
	}, func() {
		x = 1 // race: captured
	})

	// 7. Array element inside a heap struct: write against read.
	var miss int
	pair(func() {
		st.misses[2] = 5 // race: array-field
	}, func() {
		miss = st.misses[2] // race: array-field
	})

	// 8. Method receiver: the same method called from two goroutines.
	acct := &account{}
	pair(func() { acct.deposit(1) }, func() { acct.deposit(2) })

	// 9. The long-lived worker writes; a short-lived goroutine reads. The
	// worker's task is handed over by channel, which orders main before
	// the worker but not the worker before the reader. main waits for the
	// worker's write only after the reader is done, so that both accesses
	// happen before the collection however the scheduler delays them.
	var status, got int
	wrote := make(chan bool, 1)
	tasks <- func() {
		status = 7 // race: long-short
		wrote <- true
	}
	time.Sleep(gap)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		got = status // race: long-short
	}()
	wg.Wait()
	<-wrote
	runtime.GC()

	// 10. A short-lived goroutine writes; the long-lived worker writes.
	// main waits for the goroutine only after the worker's write.
	var owner int
	wg.Add(1)
	go func() {
		defer wg.Done()
		owner = 1 // race: short-long
	}()
	time.Sleep(gap)
	workerTask := make(chan bool)
	tasks <- func() {
		owner = 2 // race: short-long
		workerTask <- true
	}
	<-workerTask
	wg.Wait()

	close(tasks)
	workerDone.Wait()
	fmt.Println(counter, lastUser, seen, s[3], limit, y, miss, acct.balance, got, owner)
}

type account struct{ balance int }

// deposit is a method whose receiver's field both goroutines update.
func (a *account) deposit(n int) {
	a.balance += n // race: method
}
