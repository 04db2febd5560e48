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
// A record is recognised by address: it is in the pending table from
// GoSpawn until its goroutine takes it, or until the table forgets it to
// make room (a goroutine that calls no hook for that long then registers
// as one racegen did not start, which is never a false report: see
// lazyThread). Reading past the label set of a label pointer that is not
// a record could fault, so nothing else identifies one.

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
	slot   int // index in its shard's ring (spawnTable.add)
}

// freshSpawn is the spawn of every goroutine started while the gate was
// closed by a parent without labels, the common case at low rates: it
// costs no allocation and is never pending.
var freshSpawn = spawn{g: Goroutine{fresh: true}}

// GoSpawn is called by the parent goroutine immediately before a go
// statement whose function is not a function literal (FastTrack's fork,
// as GoFork), and GoSpawned with its result immediately after it.
func GoSpawn() unsafe.Pointer {
	old := getProfLabel()
	if old != nil && isSpawn(old) {
		// The caller was itself spawned and has not called a hook yet
		// (the gate was closed): take its own spawn first, so that its
		// child inherits its real labels.
		adoptSpawn(old, getg())
		old = getProfLabel()
	}
	var s *spawn
	switch t := syncer(); {
	case t == nil && old == nil:
		s = &freshSpawn
	case t == nil:
		s = &spawn{g: Goroutine{fresh: true}}
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

// GoSpawned gives the parent back the labels GoSpawn returned.
func GoSpawned(labels unsafe.Pointer) { setProfLabel(labels) }

// isSpawn reports whether the label pointer p is a spawn not yet taken.
func isSpawn(p unsafe.Pointer) bool {
	return p == unsafe.Pointer(&freshSpawn) || spawns.has(uintptr(p))
}

// adoptSpawn registers the calling goroutine, running on gp, from the
// spawn p that its label pointer holds, and gives it its creator's labels
// back. It returns nil if another goroutine took p first: only a
// goroutine that the spawned one started before its first hook, through
// a go statement racegen did not rewrite, can hold the same labels.
func adoptSpawn(p unsafe.Pointer, gp uintptr) *thread {
	s := (*spawn)(p)
	setProfLabel(s.orig)
	if s != &freshSpawn && !spawns.take(s) {
		return nil
	}
	return start(s.g, gp)
}

// spawned returns the thread of the goroutine running on gp if it was
// started by a go statement through GoSpawn and had not registered yet,
// registering it; otherwise it returns nil.
func spawned(gp uintptr) *thread {
	p := getProfLabel()
	if p == nil || !isSpawn(p) {
		return nil
	}
	return adoptSpawn(p, gp)
}

// spawns holds the pending spawns, in shards chosen by address. Each
// shard remembers at most spawnShardCap of them and forgets the oldest to
// make room, so goroutines that never call a hook cost bounded memory.
var spawns spawnTable

const (
	spawnShards   = 64
	spawnShardCap = 1024
)

type spawnTable struct {
	shards [spawnShards]spawnShard
}

type spawnShard struct {
	mu   sync.Mutex
	m    map[uintptr]*spawn // by address, which need not be a spawn's
	ring [spawnShardCap]*spawn
	next int
	_    [64]byte // keep shards' locks on separate cache lines
}

func (t *spawnTable) shard(p uintptr) *spawnShard {
	return &t.shards[(p>>4)%spawnShards]
}

func (t *spawnTable) add(s *spawn) {
	p := uintptr(unsafe.Pointer(s))
	sh := t.shard(p)
	sh.mu.Lock()
	if sh.m == nil {
		sh.m = make(map[uintptr]*spawn)
	}
	if old := sh.ring[sh.next]; old != nil {
		delete(sh.m, uintptr(unsafe.Pointer(old)))
	}
	sh.ring[sh.next] = s
	s.slot = sh.next
	sh.next = (sh.next + 1) % spawnShardCap
	sh.m[p] = s
	sh.mu.Unlock()
}

// has reports whether p is the address of a pending spawn.
func (t *spawnTable) has(p uintptr) bool {
	sh := t.shard(p)
	sh.mu.Lock()
	_, ok := sh.m[p]
	sh.mu.Unlock()
	return ok
}

// take removes s and reports whether it was pending.
func (t *spawnTable) take(s *spawn) bool {
	p := uintptr(unsafe.Pointer(s))
	sh := t.shard(p)
	sh.mu.Lock()
	_, ok := sh.m[p]
	if ok {
		delete(sh.m, p)
		sh.ring[s.slot] = nil // let s go now, not when the ring comes round
	}
	sh.mu.Unlock()
	return ok
}
