package runtime_test

import (
	"sync"
	"testing"
	"unsafe"

	rt "github.com/racegen/racegen/runtime"
)

// A go statement hands the child its creator's vclock as it is, with the
// creator's own epoch beside it (thread.inh). The tests here check that
// the epoch is part of the child's clock wherever that clock goes: in the
// child's own checks, in every release the child makes, and in the clocks
// of the child's children. In each, the creator writes x just before the
// go statement, after a release of its own has moved its clock past what
// its vclock holds, so that only the inherited epoch orders the write.

// tick moves the calling goroutine's clock on: a release ticks it.
func tick() {
	mu := new(sync.Mutex)
	rt.Lock(mu)
	rt.Unlock(mu)
}

// TestInheritedEpochEdges checks every ordering edge: a goroutine forked
// before the creator's write reads x after acquiring what the child
// released, which orders the write only through the child's inherited
// epoch.
func TestInheritedEpochEdges(t *testing.T) {
	for _, e := range edges() {
		if e.notOrdering {
			continue
		}
		t.Run(e.name, func(t *testing.T) {
			x := newObject()
			sw, sr := newSite(), newSite()
			rel, acq := e.setup()
			expectRaces(t, 0, func() {
				released := make(chan struct{})
				start := make(chan struct{}) // unseen by the detector
				acquirer := goInstr(func() {
					<-start
					if !e.rendezvous {
						<-released
					}
					acq()
					rt.Read(x, 8, sr)
				})
				tick()
				rt.Write(x, 8, sw)
				child := goInstr(func() {
					rel()
					close(released)
				})
				close(start)
				<-child
				<-acquirer
			})
		})
	}
}

// TestInheritedEpoch checks the other ways a child's clock is used.
func TestInheritedEpoch(t *testing.T) {
	tests := []struct {
		name string
		want int
		run  func(x, y unsafe.Pointer, sw, sr uint64)
	}{
		{
			// The child's own check finds the write ordered.
			name: "child reads",
			run: func(x, _ unsafe.Pointer, sw, sr uint64) {
				tick()
				rt.Write(x, 8, sw)
				<-goInstr(func() { rt.Read(x, 8, sr) })
			},
		},
		{
			// A write after the go statement is not inherited.
			name: "write after the go statement",
			want: 1,
			run: func(x, _ unsafe.Pointer, sw, sr uint64) {
				tick()
				wrote := make(chan struct{}) // unseen by the detector
				child := goInstr(func() {
					<-wrote
					rt.Read(x, 8, sr)
				})
				rt.Write(x, 8, sw)
				close(wrote)
				<-child
			},
		},
		{
			// The child's children inherit what it inherited.
			name: "grandchild reads",
			run: func(x, _ unsafe.Pointer, sw, sr uint64) {
				tick()
				rt.Write(x, 8, sw)
				<-goInstr(func() {
					<-goInstr(func() { rt.Read(x, 8, sr) })
				})
			},
		},
		{
			// The child acquires a clock it does not cover before it
			// reads: its vclock, cloned to join it, must keep the
			// inherited epoch.
			name: "child acquires, then reads",
			run: func(x, _ unsafe.Pointer, sw, sr uint64) {
				mu := new(sync.Mutex)
				<-goInstr(func() { rt.Lock(mu); rt.Unlock(mu) })
				tick()
				rt.Write(x, 8, sw)
				<-goInstr(func() {
					rt.Lock(mu)
					rt.Unlock(mu)
					rt.Read(x, 8, sr)
				})
			},
		},
		{
			// Two children release into one WaitGroup: the first
			// merge stores the first child's clock, the second joins
			// the second child's, inherited epoch and all, for a
			// goroutine forked before either write.
			name: "second Done into a WaitGroup",
			run: func(x, y unsafe.Pointer, sw, sr uint64) {
				wg := new(sync.WaitGroup)
				rt.WaitGroupAdd(wg, 2)
				start := make(chan struct{}) // unseen by the detector
				waiter := goInstr(func() {
					<-start
					rt.WaitGroupWait(wg)
					rt.Read(x, 8, sr)
					rt.Read(y, 8, sr)
				})
				tick()
				rt.Write(x, 8, sw)
				<-goInstr(func() { rt.WaitGroupDone(wg) })
				tick()
				rt.Write(y, 8, sw)
				<-goInstr(func() { rt.WaitGroupDone(wg) })
				close(start)
				<-waiter
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y := newObject(), newObject()
			sw, sr := newSite(), newSite()
			expectRaces(t, tt.want, func() { tt.run(x, y, sw, sr) })
		})
	}
}
