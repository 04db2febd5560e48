package runtime

import (
	"sync"
	"unsafe"
)

// A go statement whose function is not a function literal, go f(x), has
// no body of the program's own in which the new goroutine could register
// with the detector. Wrapping the call in a function literal that does,
// as GoFork and GoStart do for literals, puts a frame of racegen's under
// the goroutine's function, where no uninstrumented build has one: code
// that walks its own stack to the bottom (loggers' caller skips, stack
// checks in tests) sees it. go build -race adds no frame, and neither
// does racegen: the rewriter writes
//
//	fn, a := f, x
//	s := racegenrt.GoSpawn()
//	go fn(a)
//	racegenrt.GoSpawned(s)
//
// and GoSpawn hands the new goroutine its detector state through the one
// word of a goroutine that the Go runtime copies from parent to child:
// the profiler label pointer (runtime.newproc1 gives every user goroutine
// its creator's labels). GoSpawn points the parent's labels at a spawn
// record for the duration of the go statement and GoSpawned puts them
// back; the child finds the record at its first hook (current), takes
// its state from it and gets its creator's labels back. Until then, and
// for good if it never calls a hook, its labels are the record, whose
// first words are a copy of the creator's label set, as runtime/pprof
// reads it: profiles see the labels the child would have had.
//
// A record is recognised by address: it is in the table of pending ones
// from GoSpawn until its goroutine takes it or the table forgets it.
// Reading past the label set of a label pointer that is not a record
// could fault, so nothing else identifies one.

//go:linkname getProfLabel runtime/pprof.runtime_getProfLabel
func getProfLabel() unsafe.Pointer

//go:linkname setProfLabel runtime/pprof.runtime_setProfLabel
func setProfLabel(labels unsafe.Pointer)

// labelSet has the layout of runtime/pprof's labelMap, what the Go
// runtime's label pointer points to: a slice of labels.
// TestSpawnLabels checks it against runtime/pprof.
type labelSet struct {
	list     unsafe.Pointer
	len, cap int
}

// A spawn is what a go statement hands to the goroutine it starts.
type spawn struct {
	labels labelSet // first: runtime/pprof reads a spawn as a labelMap
	orig   unsafe.Pointer
	g      Goroutine
	born   uint32 // gcGen when the go statement ran (spawnTable.sweep)
}

// freshSpawn is the spawn of every goroutine started while the gate was
// closed by a parent without labels, the common case at low rates: it
// costs no allocation and is never pending.
var freshSpawn = spawn{g: freshGoroutine}

// GoSpawn is called by the parent goroutine immediately before a go
// statement whose function is not a function literal (FastTrack's fork,
// as GoFork), and GoSpawned with its result immediately after it.
//
//go:noinline
func GoSpawn() unsafe.Pointer {
	old := getProfLabel()
	if old != nil && !registered(getg()) {
		if s := takeSpawn(old); s != nil {
			// The caller was itself spawned and has not called a hook
			// yet (the gate was closed): take its own spawn first, so
			// that its child inherits its real labels.
			//
			// A caller the detector knows already has its thread, and
			// a spawn in its labels is not its own: it inherited it
			// from a creator that had not taken it (a goroutine started
			// by a go statement while the gate was closed gets its
			// creator's labels, and &freshSpawn is every such
			// creator's). Adopting it used to give the caller a second
			// thread, fresh or forked from another goroutine, for its
			// synchronization, while its functions' Ctx kept the first
			// for its accesses: the go statement then forked a child
			// that knew nothing of the caller's earlier accesses, and
			// the child's reads of what the caller had written before
			// the go statement were reported as races (fasthttp's
			// hijacked connections and net/http's Serve at rate 0.01;
			// TestSpawnRegisteredKeepsThread).
			adopt(s, getg())
			old = getProfLabel()
		}
	}
	var s *spawn
	switch t := forker(); {
	case t == nil && old == nil:
		s = &freshSpawn
	case t == nil:
		s = &spawn{g: freshGoroutine}
	case staticSync:
		s = &spawn{g: staticFork(t)}
	default:
		s = &spawn{g: Goroutine{t: fork(t)}}
	}
	if s != &freshSpawn {
		if old != nil {
			s.labels = *(*labelSet)(old)
		}
		s.orig = old
		spawns.add(s)
	}
	setProfLabel(unsafe.Pointer(s))
	return old
}

// registered reports whether the goroutine running on gp (0 without
// getg) is one the detector knows: it has a thread, or is marked to get a
// fresh one (startFresh).
func registered(gp uintptr) bool {
	if gp == 0 {
		_, ok := byGoid.Load(stackGoid())
		return ok
	}
	t := gtab.lookup(gp)
	return t == freshMark || t != nil && t.runsOn(gp)
}

// GoSpawned gives the parent back the labels GoSpawn returned.
func GoSpawned(labels unsafe.Pointer) { setProfLabel(labels) }

// takeSpawn returns the spawn that the label pointer p is, removing it
// from the pending ones, or nil if p is none.
func takeSpawn(p unsafe.Pointer) *spawn {
	if p == unsafe.Pointer(&freshSpawn) {
		return &freshSpawn
	}
	return spawns.take(uintptr(p))
}

// adopt registers the calling goroutine, running on gp, from its spawn s,
// and gives it its creator's labels back.
func adopt(s *spawn, gp uintptr) *thread {
	setProfLabel(s.orig)
	return start(s.g, gp)
}

// spawned returns the thread of the goroutine running on gp if it was
// started by a go statement through GoSpawn and had not registered yet,
// registering it; otherwise it returns nil. A goroutine that the spawned
// one started before its first hook through a go statement racegen did
// not rewrite holds the same label pointer; whichever of them comes
// second finds the spawn taken and registers as one racegen did not start.
func spawned(gp uintptr) *thread {
	p := getProfLabel()
	if p == nil {
		return nil
	}
	s := takeSpawn(p)
	if s == nil {
		return nil
	}
	return adopt(s, gp)
}

// spawns holds the pending spawns, in shards chosen by address. Taking a
// spawn deletes its entry. The sweeper deletes the entries made before
// the last spawnCycles GC cycles, whose goroutines have not called a hook
// since, or ended without calling one: a goroutine of a go statement is
// ready to run from it, and its first hook comes with its first access or
// synchronization. One that calls a hook later registers as one racegen
// did not start (lazyThread), which is never a false report. (A table
// bounded by count instead made a loop of go statements that ran ahead of
// its goroutines, bench/ops's BenchmarkGo, register most of them that
// way, and each such registration joins every slot's clock under a global
// lock. Weak pointers in the table cost a go statement 15% more.)
var spawns spawnTable

const (
	spawnShards = 64
	spawnCycles = 2
)

type spawnTable struct {
	shards [spawnShards]spawnShard
}

type spawnShard struct {
	mu sync.Mutex
	m  map[uintptr]*spawn
	_  [64]byte // keep shards' locks on separate cache lines
}

func (t *spawnTable) shard(p uintptr) *spawnShard {
	return &t.shards[(p>>4)%spawnShards]
}

func (t *spawnTable) add(s *spawn) {
	s.born = gcGen.Load()
	p := uintptr(unsafe.Pointer(s))
	sh := t.shard(p)
	sh.mu.Lock()
	if sh.m == nil {
		sh.m = make(map[uintptr]*spawn)
	}
	sh.m[p] = s
	sh.mu.Unlock()
}

// take removes the pending spawn at address p and returns it, or nil if
// none is pending there.
func (t *spawnTable) take(p uintptr) *spawn {
	sh := t.shard(p)
	sh.mu.Lock()
	s := sh.m[p]
	if s != nil {
		delete(sh.m, p)
	}
	sh.mu.Unlock()
	return s
}

// sweep deletes the entries made before the last spawnCycles of the gen
// GC cycles that have completed.
func (t *spawnTable) sweep(gen uint32) {
	for i := range t.shards {
		sh := &t.shards[i]
		sh.mu.Lock()
		for p, s := range sh.m {
			if gen-s.born > spawnCycles {
				delete(sh.m, p)
			}
		}
		sh.mu.Unlock()
	}
}
