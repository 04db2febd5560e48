package runtime_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	rt "github.com/racegen/racegen/runtime"
)

// TestSharedSlots runs a child process with two slots (slots=2), so that
// every goroutine but the first two shares a slot with a live one, and
// checks the invariant that keeps sharing from inventing races: a
// goroutine's own clock is never below what it knows of its slot. In the
// child, a sharer with a clock far ahead of its slot's holder writes and
// then releases by each ordering edge of TestSyncEdges; the holder
// acquires and writes the same variable, which must not be reported. A
// goroutine forked after its parent learned of a sharer's clock must find
// that sharer's write ordered too, and so must a goroutine that acquires a
// clock the sharer and then the holder released into, and so must a
// child that a sharer forks onto its own slot. One race between goroutines on
// different slots must still be reported, naming the sharer's goroutine
// as unknown (its slot cannot tell which goroutine made the access).
func TestSharedSlots(t *testing.T) {
	// Every report counts: the checks share their sites.
	r := runChildProcess(t, "shared-slots", "slots=2 suppress_equal_stacks=0")
	if strings.Contains(r.stdout, "setup:") || !strings.Contains(r.stdout, "done\n") {
		t.Fatalf("child did not run as designed; stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "WARNING: DATA RACE"); n != 1 || r.code != 66 {
		t.Fatalf("%d reports and exit status %d, want 1 and 66; stdout:\n%s\nstderr:\n%s", n, r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "by unknown goroutine:") {
		t.Errorf("the sharer's access does not name an unknown goroutine:\n%s", r.stderr)
	}
	for _, e := range edges() {
		if e.notOrdering {
			continue
		}
		for _, slot := range []int{0, 1} {
			if want := fmt.Sprintf("edge %s slot %d races 0\n", e.name, slot); !strings.Contains(r.stdout, want) {
				t.Errorf("edge %s with the sharer on slot %d: no line %q; stdout:\n%s", e.name, slot, want, r.stdout)
			}
		}
	}
	for _, want := range []string{"fork slot 1 races 0\n", "merge slot 0 races 0\n", "inherit own slot races 0\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no line %q; stdout:\n%s", want, r.stdout)
		}
	}
}

// sharedSlots is TestSharedSlots's child. It prints "setup:" lines if the
// slots are not as designed, one line per check it ran with the races that
// check reported, and "done".
func sharedSlots() {
	check := func(what string, got, want uint32) {
		if got != want {
			fmt.Printf("setup: %s on slot %d, want %d\n", what, got, want)
		}
	}
	check("main", rt.CurrentSlot(), 0)
	hold := make(chan struct{})
	held := make(chan uint32)
	goInstr(func() { held <- rt.CurrentSlot(); <-hold })
	check("holder", <-held, 1)

	// ahead moves the calling goroutine's clock well past its slot
	// holder's: every release ticks it.
	ahead := func() {
		mu := new(sync.Mutex)
		for range 50 {
			rt.Lock(mu)
			rt.Unlock(mu)
		}
	}
	s1, s2 := newSite(), newSite()
	for _, e := range edges() {
		if e.notOrdering {
			continue
		}
		// Sharers take slots round robin, so two runs put the sharer
		// once on main's slot and once on the holder's.
		for range 2 {
			x := newObject()
			before := rt.Races()
			rel, acq := e.setup()
			var slot uint32
			done := goInstr(func() {
				slot = rt.CurrentSlot()
				ahead()
				rt.Write(x, 8, s1)
				rel()
			})
			if !e.rendezvous {
				<-done
			}
			acq()
			<-done
			rt.Write(x, 8, s2)
			fmt.Printf("edge %s slot %d races %d\n", e.name, slot, rt.Races()-before)
		}
	}

	// A parent that learned a sharer's clock forks a goroutine onto the
	// sharer's slot: the child's clock must start at what its parent
	// knows of that slot.
	for range 2 {
		x := newObject()
		before := rt.Races()
		mu := new(sync.Mutex)
		done := goInstr(func() {
			ahead()
			rt.Lock(mu)
			rt.Write(x, 8, s1)
			rt.Unlock(mu)
		})
		<-done
		rt.Lock(mu)
		rt.Unlock(mu)
		var slot uint32
		<-goInstr(func() {
			slot = rt.CurrentSlot()
			rt.Write(x, 8, s2)
		})
		fmt.Printf("fork slot %d races %d\n", slot, rt.Races()-before)
	}

	// A sharer and then its slot's holder release into one clock (a
	// merge): the holder's epoch must not replace the sharer's, which is
	// ahead of it, for a third goroutine that acquires the clock.
	for range 2 {
		x := newObject()
		before := rt.Races()
		wg := new(sync.WaitGroup)
		rt.WaitGroupAdd(wg, 2)
		var slot uint32
		<-goInstr(func() {
			slot = rt.CurrentSlot()
			ahead()
			rt.Write(x, 8, s1)
			rt.WaitGroupDone(wg)
		})
		rt.WaitGroupDone(wg)
		<-goInstr(func() {
			rt.WaitGroupWait(wg)
			rt.Write(x, 8, s2)
		})
		fmt.Printf("merge slot %d races %d\n", slot, rt.Races()-before)
	}

	// A sharer ahead of its slot's holder writes and forks a goroutine
	// onto its own slot, which starts at the holder's clock: the write,
	// which the child knows only by the epoch it inherits (thread.inh),
	// must be ordered before the child's own. Sharers take slots round
	// robin, and an extra goroutine shifts the turn, so that one of the
	// two runs puts the child on its creator's slot.
	for shift := range 2 {
		x := newObject()
		before := rt.Races()
		var parent, child uint32
		<-goInstr(func() {
			parent = rt.CurrentSlot()
			ahead()
			if shift == 1 {
				<-goInstr(func() { rt.CurrentSlot() })
			}
			rt.Write(x, 8, s1)
			<-goInstr(func() {
				child = rt.CurrentSlot()
				rt.Write(x, 8, s2)
			})
		})
		if parent == child {
			fmt.Printf("inherit own slot races %d\n", rt.Races()-before)
		}
	}

	// One race between goroutines on different slots: a sharer of the
	// holder's slot writes, then main does, unordered.
	sr1, sr2 := newSite(), newSite()
	for {
		y := newObject()
		var slot uint32
		<-goInstr(func() {
			slot = rt.CurrentSlot()
			if slot != 0 {
				rt.Write(y, 8, sr1)
			}
		})
		if slot != 0 {
			rt.Write(y, 8, sr2)
			break
		}
	}
	close(hold)
	fmt.Println("done")
	rt.Exit(0)
}
