package runtime

import "unsafe"

// Read records a read of size bytes at p by the current goroutine and
// reports a race with an earlier, unordered write. site identifies the
// access in the instrumented source (see RegisterSites). The instrumenter
// calls Read immediately before the access, with an address it evaluated
// exactly once.
//
// Read takes the address as a pointer, as every hook does, so that a
// move of the goroutine's stack while it runs adjusts it (stack.go).
func Read(p unsafe.Pointer, size uintptr, site uint64) { access(p, size, site, opRead) }

// Write records a write of size bytes at p and reports a race with an
// earlier, unordered read or write.
func Write(p unsafe.Pointer, size uintptr, site uint64) { access(p, size, site, opWrite) }

// ReadRange records a read of the n bytes starting at p, as done by
// copy, append, string conversions and whole-array or struct copies.
func ReadRange(p unsafe.Pointer, n uintptr, site uint64) { access(p, n, site, opRead) }

// WriteRange records a write of the n bytes starting at p.
func WriteRange(p unsafe.Pointer, n uintptr, site uint64) { access(p, n, site, opWrite) }

// An op is the kind of an access.
type op uint8

const (
	opRead  op = 0
	opWrite op = 1 << iota
	// opAtomic marks an operation of sync/atomic or one the detector
	// models as such (a channel send or close). Two atomic operations
	// never race; an atomic and a plain access to the same bytes can.
	opAtomic
	// opDrawn marks an access that FRESA counted and kept before the
	// epoch cache was asked (hookAccess), so that accessSlow does not
	// count it again.
	opDrawn
	// opRepeatChecked marks an access that accessOne found, without
	// the line's lock, not to repeat the granule's history (settles), so
	// that accessGranule does not ask again under the lock. Only the
	// goroutine stores its own epochs, so the answer cannot have changed
	// in between; and were the access a repeat after all, recording it
	// again would only redo what is recorded.
	opRepeatChecked
)

// A conflict is the earlier access of a race, copied out of its cell so
// that the report can be written without holding its line's lock.
type conflict struct {
	prev  epoch
	site  uint64
	write bool
	gen   uint32 // the cell's generation, for the reuse check
	// global reports that the history is known to describe the object
	// now at its address: it is a global's, which is never reused, or
	// a live channel's own (chanhist.go), kept with its syncVar.
	global bool
}

// access is what every hook inlines: while the gate is closed it is a
// load and a branch.
func access(p unsafe.Pointer, size uintptr, site uint64, o op) {
	if gateOpen() {
		accessGated(p, size, site, o, nil)
	}
}

// A Ctx is an instrumented function's cache of the detector state of the
// goroutine running it: the rewriter declares one, zero, at the top of
// every function that reads or writes memory, and passes its address to
// R and W, so that the state is looked up (current, with getg and a hash
// table probe, about a third of an access that its epoch cache answers)
// once per call of the function rather than once per access.
//
// A Ctx is filled only while it lies on the stack of the running
// goroutine, and then stays on that stack, moving with it when it grows,
// for as long as it lives: Go pointers into a goroutine's stack never
// reach another goroutine, so only that goroutine can pass it, and its
// state is right for every later access. A Ctx that a closure captured
// and took to another goroutine has moved to the heap, since the closure
// escaped; it is never filled, and each access looks its state up.
type Ctx struct {
	t *thread
}

// thread returns the running goroutine's state, or nil on a system
// stack; c may be nil. Its common case, a filled Ctx, is a load that the
// inliner puts in its callers (hookAccess calls it on every sampled
// access); the rest is fill, a call.
func (c *Ctx) thread() *thread {
	if c != nil && c.t != nil {
		return c.t
	}
	return c.fill()
}

// fill is the rest of thread when c is nil or empty: it looks the
// goroutine up, and keeps it in c (keep).
func (c *Ctx) fill() *thread {
	t := current()
	c.keep(t)
	return t
}

// keep stores t, the running goroutine's state, in c if c lies on that
// goroutine's stack: a Ctx captured by a closure that another goroutine
// runs must not carry it. c and t may be nil.
func (c *Ctx) keep(t *thread) {
	if c == nil || t == nil {
		return
	}
	if _, ok := t.address(unsafe.Pointer(c)); ok {
		c.t = t
	}
}

// wordBytes is the size of the word that R and W record of a value whose
// site is marked SiteWord.
const wordBytes = unsafe.Sizeof(uintptr(0))

// hookAccess is the rest of R and W once the gate is open: a function of
// its own, not generic, so that R and W stay within the inliner's budget.
// In a generic R, the size of *p is a constant of the shape it is
// compiled for.
//
// It answers the commonest access of a sampling period without a call:
// a goroutine whose function's Ctx is filled, whose epoch cache serves
// the period (hotCache) and holds the bytes accessed (covered, inlined).
// Such accesses took 123 instructions each in bench/ops's SameWord
// (three of its four accesses an iteration) when they went on to
// sampledOne and covered, calls that made this function spill its
// arguments on entry. The calls it makes for the rest take its own
// arguments, or the goroutine: when sampledMiss took what the cache was
// asked with, the epoch, the granule and its mask, they were spilled to
// the stack before the cache was asked, on every access (bench/ops's
// SameWord at rate 1: 448 instructions an iteration, 401 without).
// Everything else goes to hookSlow.
//
// A site marked SiteWord, whose value is wider than a word, fails the
// one-granule test and goes to hookSlow, which records its first word
// alone: tested here, it cost every access two instructions (msort's
// BenchmarkSort at rate 1: 10,476 million instructions against 10,346,
// callgrind, -test.benchtime 2x).
//
//go:noinline
func hookAccess(p unsafe.Pointer, n uintptr, site uint64, o op, c *Ctx) {
	if !staticSync && !fresa.count && c != nil && c.t != nil {
		t := c.t
		if ec := t.hotCache(); ec != nil {
			// A nil p or an n of 0 finds no entry, or a mask of
			// nothing to do: the miss path tests them.
			a := uintptr(p)
			if a&7+n <= 8 {
				if ec.covered(a&^7, t.epoch(), oneGranuleMask(a, n), o) {
					return
				}
				if a != 0 && n != 0 {
					sampledMiss(p, n, site, o, t)
					return
				}
			}
		}
	}
	if fresa.count && !staticSync && c != nil && c.t != nil && sampling.Load() != 0 {
		hookFresa(p, n, site, o, c)
		return
	}
	hookSlow(p, n, site, o, c)
}

// hookFresa is hookAccess in a sampling period of a build that counts
// (FRESA, or a run that writes a profile), for a goroutine whose Ctx is
// filled: FRESA draws first, from the goroutine's own generator, so that
// a skipped access costs the draw alone (fresa.go), and a kept one goes
// on as hookAccess's fast path does. It is a function of its own so that
// the path of builds that do not count keeps hookAccess's registers:
// drawing in hookAccess itself made it keep the goroutine on the stack,
// and msort's BenchmarkSort at rate 1 without FRESA took 11,637 million
// instructions (callgrind, -test.benchtime 2x) against 11,584. Its
// probe of the epoch cache repeats hookAccess's: the two as one method
// would not be inlined (cost 253 against the inliner's budget of 80),
// and a call on that path is what hookAccess's comment measures.
func hookFresa(p unsafe.Pointer, n uintptr, site uint64, o op, c *Ctx) {
	t := c.t
	if fresaSkip(site, t.draws.next(), t.runDiscount(site)) {
		return // a hot site's access, not drawn
	}
	o |= opDrawn
	if ec := t.hotCache(); ec != nil {
		a := uintptr(p)
		if a&7+n <= 8 {
			if ec.covered(a&^7, t.epoch(), oneGranuleMask(a, n), o) {
				return
			}
			if a != 0 && n != 0 {
				sampledMiss(p, n, site, o, t)
				return
			}
		}
	}
	hookSlow(p, n, site, o, c) // drawn: it goes on from its second test
}

// hookSlow is hookAccess for every access that neither its fast path nor
// hookFresa answers: with an empty Ctx, across granules, or outside
// sampling periods. It draws for FRESA unless hookFresa has (opDrawn).
func hookSlow(p unsafe.Pointer, n uintptr, site uint64, o op, c *Ctx) {
	if site&SiteWord != 0 {
		n = wordBytes // its first word alone (SiteWord)
	}
	a := uintptr(p)
	var t *thread // looked up once: a Ctx that cannot be filled costs a lookup each time
	if fresa.count && o&opDrawn == 0 && sampling.Load() != 0 {
		// FRESA draws first, so that a skipped access costs the draw
		// alone (fresa.go). The goroutine is looked up first, and its
		// Ctx filled, so that the function's later accesses take
		// hookFresa: a hot site's accesses, skipped before anything
		// else was done, left the Ctx empty until one was kept, and
		// every access of a call came here.
		if t = c.thread(); t == nil {
			return // a system stack
		}
		if fresaSkip(site, t.draws.next(), t.runDiscount(site)) {
			return // a hot site's access, not drawn
		}
		o |= opDrawn
	}
	if !staticSync && a != 0 && n != 0 && a&7+n <= 8 && sampling.Load() != 0 {
		// In a sampling period accessSlow would look the goroutine up
		// anyway, if c is empty.
		if t == nil {
			if t = c.thread(); t == nil {
				return // a system stack
			}
		}
		ec := t.hotCache()
		if ec == nil && t.sampling() {
			// The goroutine's first access of the period, or of its
			// life: it enters the period and takes its cache here, as
			// accessSlow would, and the access goes on the shallower
			// way of sampledMiss. A new goroutine's stack starts at
			// 2 KiB, and its first access took accessSlow and
			// accessOne's frames into the read set's (errgroup's
			// BenchmarkGo at rate 1: a fifth of its time in copystack,
			// pprof; TestAccessFitsNewStack).
			ec = t.epochCache(true)
		}
		if ec != nil {
			if !ec.covered(a&^7, t.epoch(), oneGranuleMask(a, n), o) {
				sampledMiss(p, n, site, o, t)
			}
			return
		}
	}
	if !quiet(a, n) {
		accessGated(p, n, site, o, c)
	}
}

// hotCache returns t's epoch cache if it serves the sampling period now
// on: t has seen the period (so its epoch has moved to it: thread.sampling)
// and made its cache in it. Otherwise it returns nil, and an access goes
// the way of accessSlow, which sees to both.
func (t *thread) hotCache() *epochCache {
	if ec := t.cache; ec != nil && !ec.quiet && sampling.Load() != 0 && t.period == samplingPeriod.Load() {
		return ec
	}
	return nil
}

// sampledMiss is accessSlow for the most common access of a sampling
// period, which hookAccess has found to be one and the epoch cache does
// not answer: of n bytes at p within one granule, n and p not 0, by
// goroutine t, whose cache serves the period (hotCache). It goes to the
// shadow without the calls of accessGated and accessSlow, whose tests
// these facts answer. (msort's BenchmarkSort at rate 1: 498 ms an
// operation when hookAccess asked the cache and left the rest to those
// calls, 444 ms with this path, medians of 6 alternating runs.)
func sampledMiss(p unsafe.Pointer, n uintptr, site uint64, o op, t *thread) {
	if _, local := t.address(p); local {
		return // the goroutine's own stack (stack.go)
	}
	if t.creatorPending {
		t.creator() // the access may be recorded, and reported as the earlier one
	}
	a, e := uintptr(p), t.epoch()
	g, mask := a&^7, oneGranuleMask(a, n)
	t.cache.note(g, e, mask, o)
	// accessOne's first half, written out: most misses settle (the
	// goroutine's own access again after a synchronization operation,
	// such as testing.B.Loop's after each channel operation), and a
	// call of accessOne spilled its nine arguments on the way.
	pg := shadow.peek(g)
	var c *cell
	if pg != nil && pg.present(g) {
		c = pg.cell(g)
		if c.settles(t, e, mask, site, o, gcGen.Load(), true) {
			return
		}
	}
	accessLocked(t, pg, c, a, n, g, mask, e, site, o, true)
}

// quiet reports, for R and W to test before they call accessGated,
// whether an access of size bytes at addr certainly has nothing to do: no
// sampling period is on and no page in the filter buckets of its first
// and last byte has history. A value of at most a page lies on those
// two pages; a slice or string header, three words, is the common case
// beyond one word.
func quiet(addr, size uintptr) bool {
	return sampling.Load() == 0 && size <= pageBytes &&
		filterBucket(addr).Load() == 0 && filterBucket(addr+size-1).Load() == 0
}

// accessGated skips, outside sampling periods, accesses to memory without
// history before the full rule. c is the calling function's Ctx, or nil.
// A static or collide build has no shadow, and the accesses that its
// synchronization wrappers make (a lock's write of its state word) reach
// here only to be dropped.
func accessGated(p unsafe.Pointer, size uintptr, site uint64, o op, c *Ctx) {
	if staticSync {
		return
	}
	if sampling.Load() == 0 {
		addr := uintptr(p) // only looked up: see Read
		if addr&7+size <= 8 {
			// One granule, the common case: hasHistory's loop, inlined.
			if filterBucket(addr).Load() == 0 {
				return
			}
			if pg := shadow.peek(addr); pg == nil || pg.n.Load() == 0 || !pg.present(addr) {
				return
			}
		} else if !shadow.hasHistory(addr, size) {
			return
		}
	}
	accessSlow(p, size, site, o, c)
}

// accessSlow is the part of access that cannot be inlined.
func accessSlow(p unsafe.Pointer, size uintptr, site uint64, o op, c *Ctx) {
	if size == 0 || p == nil {
		return
	}
	t := c.thread()
	if t == nil {
		return // a system stack
	}
	addr, local := t.address(p)
	if local {
		return // the goroutine's own stack (stack.go)
	}
	sample := t.sampling()
	if sample && fresa.count && o&(opAtomic|opDrawn) == 0 && fresaSkip(site, t.draws.next(), t.runDiscount(site)) {
		return // FRESA: a hot site's access, not drawn (fresa.go)
	}
	if sample && t.creatorPending {
		t.creator() // the access may be recorded, and reported as the earlier one
	}
	write := o&opWrite != 0
	// Atomic operations consult the cache only within one granule, as
	// they always are.
	cache := t.epochCache(sample)
	e := t.epoch()
	end := addr + size
	g := addr &^ 7
	single := g+8 >= end // within one granule, as most accesses are
	var gmask uint8      // the bytes of granule g, for a one-granule access
	if single {
		gmask = oneGranuleMask(addr, size)
	}
	if cache != nil && o&opAtomic != 0 && !single {
		cache = nil
	}
	if cache != nil {
		if size > 8 {
			if cache.askRange(addr, end, e, write) {
				return
			}
			// Its granules are neither looked up nor noted one by one:
			// a range of more granules than the cache holds would evict
			// the entries of the goroutine's one-granule accesses, and
			// accessGranule's same-epoch test answers as quickly under
			// the line's lock, which the loop takes anyway. (matmul at
			// rate 1 went from 62.6-63.1 ms an operation to 55.2-56.3
			// in the middle of 6 alternating runs; callgrind counted
			// 2.7% fewer instructions in fasthttp's ServerGet.)
			cache = nil
		} else if single {
			// A redundant access is done without its line's lock, and
			// the granule loop below need not consult the cache again.
			if cache.covered(g, e, gmask, o) {
				return
			}
			cache.note(g, e, gmask, o)
			cache = nil
		}
	}
	if single {
		accessOne(t, addr, size, g, gmask, e, site, o, sample)
		return
	}
	// A range's granules whose history only the goroutine's own
	// access of the same bytes replaces take no lock (ownSteps): a
	// goroutine copying into its own buffers again after a release,
	// 59% of the range granules of fasthttp's ServerGet at rate 1.
	own := sample && cache == nil
	gen := gcGen.Load()
	reported := false
	for a := g; a < end; {
		// A page at a time, and within it a line at a time under the
		// line's lock; races are reported after it is released.
		lim := min(end, a&^(pageBytes-1)+pageBytes)
		p := shadow.pageOf(a, sample)
		if p == nil {
			a = lim // nothing recorded there, and nothing to record
			continue
		}
		for a < lim {
			// A line at a time, under its lock.
			llim := min(lim, a&^(lineBytes-1)+lineBytes)
			if own {
				if a = p.ownSteps(t, a, llim, addr, end, e, site, o, gen); a == llim {
					continue
				}
			}
			var first, later conflict
			found := false
			mu := lineLock(a)
			mu.Lock()
			for ; a < llim; a += 8 {
				mask := granuleMask(a, addr, end)
				if cache != nil {
					if cache.covered(a, e, mask, o) {
						continue
					}
					cache.note(a, e, mask, o)
				}
				// The first race found in the line is the one
				// reported; later ones go to a scratch copy.
				cf := &first
				if found {
					cf = &later
				}
				if accessGranule(t, p, a, mask, site, o, sample, cf) {
					found = true
				}
			}
			mu.Unlock()
			if found && !reported {
				reported = reportRace(t, addr, size, site, write, first)
			}
		}
	}
}

// accessOne runs the rule on t's access o, at epoch e, of the size bytes
// at addr, which lie within granule g as its bytes gmask: the common
// case of accessSlow, without its loop. sample says whether the access
// falls in t's sampling period.
func accessOne(t *thread, addr, size, g uintptr, gmask uint8, e epoch, site uint64, o op, sample bool) {
	// If the granule's cell holds this goroutine's access of the same
	// bytes in this epoch, the access is redundant; if it only replaces
	// the goroutine's own last one, it can be recorded with a swap.
	// settles does either without the line's lock.
	p := shadow.peek(g)
	var c *cell
	if p != nil && p.present(g) {
		c = p.cell(g)
		if c.settles(t, e, gmask, site, o, gcGen.Load(), sample) {
			return
		}
	}
	accessLocked(t, p, c, addr, size, g, gmask, e, site, o, sample)
}

// accessLocked is the rest of accessOne, and of sampledMiss, when settles
// has not settled the access: the rule under the line's lock. p is g's
// page, or nil if there was none, and c its cell for g if it had one, as
// found before settles was asked.
func accessLocked(t *thread, p *page, c *cell, addr, size, g uintptr, gmask uint8, e epoch, site uint64, o op, sample bool) {
	if p == nil {
		if p = shadow.pageOf(g, sample); p == nil {
			return // nothing recorded there, and nothing to record
		}
	}
	var cf conflict
	mu := lineLock(g)
	mu.Lock()
	var found bool
	if c != nil && sample && p.present(g) && c.gen >= gcGen.Load() && c.oneStep(gmask, o) {
		// The cell found above, still there and of this GC cycle: the
		// step accessGranule would take, without its call and its
		// second look for the cell.
		c.markGlobal(site)
		found = c.step(t, e, gmask, site, o, &cf)
	} else {
		found = accessGranule(t, p, g, gmask, site, o|opRepeatChecked, sample, &cf)
	}
	mu.Unlock()
	if found {
		reportRace(t, addr, size, site, o&opWrite != 0, cf)
	}
}

// oneGranuleMask is granuleMask(a&^7, a, a+n) for an access that lies
// within one granule (a&7+n <= 8), in a shift and a subtraction: the
// epoch cache is asked about such accesses more than about any other,
// and granuleMask's general case was a third of the instructions of an
// answered one.
func oneGranuleMask(a, n uintptr) uint8 {
	return uint8((uint16(1)<<(n&15) - 1) << (a & 7)) // n&15 is n: it spares the shift a test for counts of 16 or more
}

// granuleMask returns the bytes of the granule at a covered by [lo, hi).
func granuleMask(a, lo, hi uintptr) uint8 {
	from, to := uintptr(0), uintptr(8)
	if lo > a {
		from = lo - a
	}
	if hi < a+8 {
		to = hi - a
	}
	return uint8((uint16(1)<<to - 1) &^ (uint16(1)<<from - 1))
}

// accessGranule runs the read or write rule (cell.apply) on the
// granule at a, making its cell if a sampled access finds none, and
// removes the cell if an access outside a sampling period leaves it
// empty. It reports whether the access races with an earlier one, which
// it then stores in *cf, and stores nothing otherwise. A conflict copied
// in every case, from stores of its fields just made, costs a
// store-forwarding stall on every access: inside this function, 40% of
// its own time on bench/ops's OtherGoroutine; returned by value, a tenth
// of accessSlow's own time in msort and fasthttp at rate 1 (perf
// annotate).
//
// a lies in p, and the caller holds a's line lock.
func accessGranule(t *thread, p *page, a uintptr, mask uint8, site uint64, o op, sample bool, cf *conflict) (found bool) {
	var c *cell
	gen := gcGen.Load()
	if !p.present(a) {
		if !sample {
			return // nothing recorded, nothing to record
		}
		c = p.insert(a, gen)
	} else if c = p.cell(a); c.expired(gen) {
		// A GC cycle completed since this history began: the granule
		// may belong to a new object now, or, below rate 1, the
		// history has had its time (boundedHistory).
		c.reset(gen)
	}
	c.markGlobal(site)
	found = c.apply(t, mask, site, o, sample, cf)
	if !sample && c.empty() {
		p.remove(a)
	}
	return found
}

// apply runs the read or write rule for t's access o of the bytes mask
// from site: FastTrack's, with the read set cleared by writes (Pacer's
// Algorithms 7 and 8), in a sampling period (sample), and Pacer's
// Algorithms 12 and 13 outside one, which check the access against the
// history but then only discard what FastTrack would have overwritten.
// A sampled access to a cell without an extension takes one step
// (cellstep.go) instead of the general rules' calls. It reports whether
// the access races with an earlier one, which it then stores in *cf, as
// accessGranule does. The caller holds whatever guards c: the line lock
// of a shadow cell, the syncVar's lock of a channel's history (chanhist.go).
func (c *cell) apply(t *thread, mask uint8, site uint64, o op, sample bool, cf *conflict) (found bool) {
	write, atomic := o&opWrite != 0, o&opAtomic != 0
	e := t.epoch()
	if o&opRepeatChecked == 0 && c.repeats(c.w, c.r, e, mask, o, sample) {
		return false // same epoch
	}
	if sample && c.oneStep(mask, o) {
		return c.step(t, e, mask, site, o, cf)
	}
	if write {
		found = c.checkWrite(t, mask, atomic, cf)
		c.clearReads(mask)
		if sample {
			c.recordWrite(e, mask, site, atomic)
		} else {
			c.clearWrites(mask)
		}
	} else {
		if sample && c.readSetHas(e, mask, atomic) {
			return false // same epoch, in a read set
		}
		found = c.checkRead(t, mask, atomic, cf)
		if sample {
			c.recordRead(t, e, mask, site, atomic)
		} else {
			c.discardRead(t, mask)
		}
	}
	return found
}
