package runtime

// A Goroutine is the detector state of a goroutine being created, handed
// from the go statement to the new goroutine.
//
// It is one pointer, because the go statement's function literal captures
// it: a second word (a flag, as it once had) cost errgroup's BenchmarkGo
// 16 bytes a goroutine at rate 0 (65 B/op against 49).
type Goroutine struct {
	t *thread
}

// freshGoroutine is the Goroutine of a goroutine forked while the gate was
// closed: no history existed then, so nothing before the go statement
// can be found in a report with it, and it starts with an empty clock.
// Its thread is freshMark, which no goroutine ever runs as.
var freshGoroutine = Goroutine{t: freshMark}

// fresh reports whether g was forked while the gate was closed.
func (g Goroutine) fresh() bool { return g.t == freshMark }

// creationDepth bounds the stack recorded at each go statement.
const creationDepth = 16

// GoFork is called by the parent goroutine immediately before a go
// statement whose function is a function literal (FastTrack's fork:
// Cu ← Ct; Ct[t]++). The instrumenter rewrites
//
//	go func() { ... }()
//
// so that the literal's arguments are evaluated first, as Go does, and
// then
//
//	g := GoFork(); go func() { GoStart(g); defer GoEnd(); ... }()
//
// A go statement of any other function uses GoSpawn (spawn.go).
//
// GoFork, GoSpawn, fork and staticFork are never inlined: the creation
// stack is taken by frame (creators).
//
//go:noinline
func GoFork() Goroutine {
	t := forker()
	if t == nil {
		return freshGoroutine
	}
	if staticSync {
		return staticFork(t)
	}
	return Goroutine{t: fork(t)}
}

// fork returns the state of a goroutine that t's go statement creates,
// without a slot, which the goroutine takes when it starts (start), and
// ticks t's clock. GoFork and GoSpawn call it, so the creation stack it
// records starts at their caller.
//
//go:noinline
func fork(t *thread) *thread {
	u := new(thread)
	// Cu ← Ct as a shallow copy (Pacer's Algorithm 9): t's vclock is
	// shared with u, and t's own epoch, if the vclock does not hold it,
	// goes beside it (thread.inh). In a sampling period t's clock ticks
	// at each go statement, and bringing t's own entry up to date in the
	// vclock cost a copy of every slot's entry at each; the child clones
	// the vclock, with the inherited epoch folded in, only when it first
	// joins a clock it does not cover or stores its own into an object.
	// Outside sampling periods t's clock stands still: its entry is
	// written once after each change, and the children of every go
	// statement until the next share a vclock that needs no inherited
	// epoch, which would make each child that unlocks a mutex clone it.
	t.settle() // t's own inherited epoch, if t has not settled yet
	if e := t.epoch(); t.vc.get(t.tid) < e.clock() {
		if sampling.Load() == 0 {
			t.own(int(t.tid) + 1)
			t.vc.set(t.tid, e.clock())
		} else {
			u.inh = e
		}
	}
	u.vc = t.share()
	u.parent = t.goid
	var pcs [creationDepth]uintptr
	n := creators(pcs[:])
	u.created = append([]uintptr(nil), pcs[:n]...)
	t.tick()
	return u
}

// GoStart is the first call in a goroutine created after GoFork.
func GoStart(g Goroutine) {
	if g.fresh() {
		startFresh()
		return
	}
	if g.t == nil {
		return
	}
	start(g, getg())
}

// start registers the goroutine running on gp (0 without getg) with the
// state g that its go statement handed it, and returns its thread. A
// dynamic build's goroutine takes its slot here and starts its clock
// there, at least at what its creator knew of the slot (slots.go).
func start(g Goroutine, gp uintptr) *thread {
	u := g.t
	switch {
	case g.fresh():
		// Forked while the gate was closed: its clock starts empty,
		// and its creation is known only from the runtime's
		// traceback, read when a report may need it (creator).
		u = &thread{creatorPending: true}
		if !staticSync {
			u.takeSlot()
		}
	case !staticSync:
		u.takeSlot()
		u.catchUp()
		u.changed()
	}
	u.g = gp
	u.goid = readGoid(gp)
	if gp == 0 || u.goid == 0 {
		u.goid = stackGoid()
	}
	if !staticSync {
		publish(u)
	}
	if gp != 0 {
		gtab.store(gp, u)
	} else {
		byGoid.Store(u.goid, u)
	}
	return u
}

// startFresh registers a goroutine forked while the gate was closed. It
// gets a thread and a slot only when it first needs one (current), which
// most such goroutines, in programs that are not being sampled, never do:
// until then its g's entry is the shared freshMark, so that a go
// statement at rate 0 allocates nothing. The entry is exact because the
// goroutine itself sets it here and clears it in GoEnd, which it always
// runs (deferred first), so no other goroutine on the same g can find it.
func startFresh() {
	if staticSync {
		// No clocks: a goroutine that needs a thread later gets one
		// like any goroutine racegen did not start (lazyThread).
		return
	}
	gp := getg()
	if gp == 0 {
		u := newThread()
		u.goid = stackGoid()
		publish(u)
		byGoid.Store(u.goid, u)
		return
	}
	gtab.store(gp, freshMark)
}

// GoEnd is deferred by a goroutine created after GoFork. It releases the
// goroutine's slot for reuse; the g the goroutine ran on may next run a
// goroutine racegen did not start, which will then be registered lazily.
func GoEnd() {
	gp := getg()
	var t *thread
	if gp != 0 {
		// In a static build the goroutine may have no entry
		// (startFresh), or the entry of an earlier goroutine on its
		// g, which has ended too.
		if t = gtab.lookup(gp); t != nil {
			gtab.store(gp, nil)
		}
	} else if v, ok := byGoid.LoadAndDelete(stackGoid()); ok {
		t = v.(*thread)
	}
	if t == nil || t == freshMark {
		return
	}
	t.finished.Store(true)
	freeTid(t)
	t.retire()
}
