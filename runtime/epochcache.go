package runtime

import "sync"

// A goroutine in a sampling period often accesses the same granule again
// before it next synchronizes: a loop over the bytes of a buffer touches
// each granule eight times. FastTrack's same-epoch rule makes such an
// access redundant, but finding that out in the shadow costs a page lookup
// and a line lock. The epoch cache remembers, per goroutine, which bytes
// of a few recently accessed granules it has already recorded in its
// current epoch, so that a redundant access returns before the shadow.
//
// Skipping an access can hide a race but never invent one, and the rule
// hides little: an access is skipped only if an earlier access by the same
// goroutine in the same epoch, with no synchronization between them (every
// release advances the epoch in a sampling period), covered the same
// bytes, a write covering reads too. A race with the skipped access is a
// race with the earlier one, which the detector has checked or will check
// the other access against. What can be lost is a second report: if
// another goroutine's racing write replaced the earlier access in the
// shadow, a third access is compared with that write instead.
//
// Range accesses (copies, conversions, the range hooks of hoisted loops)
// are remembered whole, and only whole: a loop nest that reads the same
// rows of a matrix for every row of its output repeats ranges of many
// granules, more than the granule entries hold, and a range entry
// answers for all of them with one comparison. Their granules are not
// noted in the granule entries, which a long range would fill with
// entries no one-granule access asks about (accessSlow).
//
// The range entries are sets of two, chosen by the range's first
// address. The table starts with 1<<minRangeBits sets and doubles, up to
// 1<<maxRangeBits, each time noteRange has evicted as many entries of the
// current epoch as the table has: a goroutine whose ranges evict each
// other before it next synchronizes is working through more of them than
// the table holds, and each miss costs a granule path per 8 bytes of its
// range. The 64 entries of the first design held too few for matmul's
// block multiply (32 rows of an operand and 32 of the product a block,
// 1,344 ranges a worker repeats): at rate 1 its BenchmarkMul took 138 ms
// an operation with them, 112 with 256 and 49 with 1,024, against 84
// under -race. The many goroutines that copy a few buffers keep the small
// table.
//
// The cache serves outside sampling periods too, where a granule's
// history lingers until an access discards it or a garbage collection
// ends it: a goroutine that reads a variable in a loop after a sampling
// period would otherwise take its line's lock on every iteration, only to
// find its own read, at its own epoch, which Pacer's Algorithms 12 and 13
// leave alone. There the cache starts empty at the end of each sampling
// period, because the rules differ: outside a sampling period a
// goroutine's read discards its own entry of a read set, which an entry
// made in the sampling period would skip, and a read set shared by every
// goroutine (a slice header, say) would then outlive the period and keep
// the gate open. After its first access outside a sampling period, a
// goroutine's next ones at the same epoch find the history as the first
// left it, or with less in it: no access records anything until the next
// sampling period, and others' accesses only discard. That period must
// end the entries before the goroutine's epoch does, which moves only at
// its own next sampled operation: others may record accesses in it that
// the goroutine's next access must be checked against. Hence the period
// test in thread.epochCache.
//
// The granule entries are 32 sets of two, chosen by address: a set's
// first entry is the one noted last. Until 2-way sets, the 64 entries were
// chosen directly, and two hot words 512 bytes apart (a loop's variable
// and the fields its testing.B.Loop reads, say) evicted each other at
// every access, depending only on where the linker and the heap put them:
// bench/ops's BenchmarkSameWord took 59 or 155 ns/op at rate 1 in two
// builds that differed by an unrelated function.
const (
	epochCacheSets = 32
	epochCacheWays = 2
	minRangeBits   = 5
	maxRangeBits   = 9
)

type epochEntry struct {
	a uintptr // granule address
	e epoch
	// repeats holds, for each kind of access, in its byte (op.lane),
	// the bytes of the granule that an access of that kind at e
	// would repeat: the answer of covered, kept ready by note so that
	// an access the cache answers, the commonest of a sampling period,
	// costs a load, a shift and a comparison once the entry is found.
	repeats uint32
}

// lane returns the position in epochEntry.repeats of the byte for o's
// kind of access, one of the four that the epoch cache tells apart:
// plain read 0, plain write 8, atomic read 16, atomic write 24 (opWrite
// and opAtomic shifted to bits 3 and 4).
func (o op) lane() uint8 { return uint8(o<<2) & 24 }

// coveredKinds has, for each kind of access (op.lane/8), a 1 in the byte
// of each kind of later access at the same epoch that its bytes make
// redundant, by covered's rules: a plain write covers every access, a plain read plain
// and atomic reads, an atomic write atomic accesses, an atomic read
// atomic reads. Multiplied by an access's mask, it gives the bytes to add
// to an entry's repeats in one step (note).
var coveredKinds = [4]uint32{
	0x00010001, // plain read: plain read, atomic read
	0x01010101, // plain write: all
	0x00010000, // atomic read: atomic read
	0x01010000, // atomic write: atomic read, atomic write
}

type rangeEntry struct {
	lo, hi uintptr // the bytes [lo, hi)
	e      epoch
	write  bool
}

type epochCache struct {
	granules [epochCacheSets][epochCacheWays]epochEntry
	// ranges has 1<<rangeBits sets of epochCacheWays entries, made at
	// the first range access; evicted counts the entries of the current
	// epoch that noteRange replaced since the table was made.
	ranges    []rangeEntry
	rangeBits uint8
	evicted   int
	// quiet is set while the entries were made outside a sampling
	// period: since the last one the goroutine saw ended.
	quiet bool
}

// spareCaches holds the epoch caches of goroutines that have ended
// (thread.retire), for the next ones. A cache is 1.6 KB: a goroutine that
// makes one sampled access, as each of errgroup's does when it reads the
// group's semaphore, allocated 2.2 KB in all at rate 1, three quarters
// of it its epoch cache.
var spareCaches sync.Pool

// newEpochCache returns an empty epoch cache, a spare one if there is.
func newEpochCache() *epochCache {
	if c, ok := spareCaches.Get().(*epochCache); ok {
		*c = epochCache{}
		return c
	}
	return new(epochCache)
}

// reset forgets every entry.
func (c *epochCache) reset() {
	c.granules = [epochCacheSets][epochCacheWays]epochEntry{}
	clear(c.ranges)
}

// set returns the entries that may hold granule a.
func (c *epochCache) set(a uintptr) *[epochCacheWays]epochEntry {
	return &c.granules[a>>3%epochCacheSets]
}

// find returns the entry of granule a at epoch e, or nil. The two ways
// are tested one after the other, without a loop: every access an epoch
// cache answers passes here.
func (c *epochCache) find(a uintptr, e epoch) *epochEntry {
	s := c.set(a)
	if x := &s[0]; x.a == a && x.e == e {
		return x
	}
	if x := &s[1]; x.a == a && x.e == e {
		return x
	}
	return nil
}

// rangeSet returns the entries that may hold ranges starting at lo, the
// first the one noted last. The hash mixes the address (the finalizer of
// MurmurHash3), since rows of a matrix start at a fixed stride, a
// multiple of a power of two more often than not: multiplying by a
// constant alone, 300 ranges 4 KiB apart shared 156 of 1,024 direct-mapped
// entries. Two entries a set keep two ranges whose hashes collide: with
// one, 300 ranges 1,536 bytes apart (matmul's rows) lost 72 to
// collisions in every round.
func (c *epochCache) rangeSet(lo uintptr) *[epochCacheWays]rangeEntry {
	h := uint64(lo)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	i := (h >> (64 - c.rangeBits)) * epochCacheWays
	return (*[epochCacheWays]rangeEntry)(c.ranges[i : i+epochCacheWays])
}

// askRange reports whether an access of [lo, hi) at epoch e is
// redundant, because a range access starting at lo covered it (a write
// covering reads too), and notes the access if it is not: accessSlow asks
// about every range access and notes each one the cache does not cover,
// and the two find lo's set (a hash) once, which finding it twice cost
// 1.3% of fasthttp's instructions at rate 1.
func (c *epochCache) askRange(lo, hi uintptr, e epoch, write bool) (covered bool) {
	if c.ranges == nil {
		c.growRanges(minRangeBits)
	}
	s := c.rangeSet(lo)
	if rangeCovers(s, lo, hi, e, write) {
		return true
	}
	c.noteRange(s, lo, hi, e, write)
	return false
}

// rangeCovers reports whether lo's set s holds a range access starting at
// lo, at epoch e, that covers an access of [lo, hi).
func rangeCovers(s *[epochCacheWays]rangeEntry, lo, hi uintptr, e epoch, write bool) bool {
	for i := range s {
		if x := &s[i]; x.lo == lo && x.e == e {
			return hi <= x.hi && (x.write || !write)
		}
	}
	return false
}

// noteRange records an access of [lo, hi) at epoch e in lo's set s.
func (c *epochCache) noteRange(s *[epochCacheWays]rangeEntry, lo, hi uintptr, e epoch, write bool) {
	// The set's first entry becomes the range's: its entry for lo at
	// e, if any, or a new one, which evicts the second.
	switch {
	case s[0].lo == lo && s[0].e == e:
	case s[1].lo == lo && s[1].e == e:
		s[0], s[1] = s[1], s[0]
	default:
		if s[1].e == e {
			// A range of this epoch goes: the goroutine repeats more
			// ranges than the table holds.
			if c.evicted++; c.evicted >= len(c.ranges) && c.rangeBits < maxRangeBits {
				c.growRanges(c.rangeBits + 1)
				c.noteRange(c.rangeSet(lo), lo, hi, e, write)
				return
			}
		}
		s[1], s[0] = s[0], rangeEntry{}
	}
	x := &s[0]
	if x.lo == lo && x.e == e && (x.write || !write) && hi < x.hi {
		return // keep the longer range
	}
	*x = rangeEntry{lo, hi, e, write}
}

// growRanges makes a range table of 1<<bits sets, keeping the entries of
// the old one that still fit, the last noted first.
func (c *epochCache) growRanges(bits uint8) {
	old := c.ranges
	c.ranges, c.rangeBits, c.evicted = make([]rangeEntry, epochCacheWays<<bits), bits, 0
	for way := epochCacheWays - 1; way >= 0; way-- {
		for i := way; i < len(old); i += epochCacheWays {
			if x := old[i]; x.hi != 0 {
				s := c.rangeSet(x.lo)
				s[1], s[0] = s[0], x
			}
		}
	}
}

// covered reports whether an access o of the bytes mask of granule a at
// epoch e is redundant.
//
// An atomic access is redundant after any access of the same bytes that
// covers it, plain or atomic: another goroutine's access that races with
// it races with that one too. A plain one is redundant only after plain
// accesses: an atomic write does not race with another goroutine's atomic
// access, which a plain read or write in its place would.
func (c *epochCache) covered(a uintptr, e epoch, mask uint8, o op) bool {
	// set and find, written out: through them the function is over
	// the inliner's budget, and hookAccess inlines it. A set holds at
	// most one entry for a granule and an epoch (note).
	s, want := &c.granules[a>>3%epochCacheSets], uint32(mask)<<o.lane()
	return s[0].a == a && s[0].e == e && s[0].repeats&want == want ||
		s[1].a == a && s[1].e == e && s[1].repeats&want == want
}

// note records an access o of the bytes mask of granule a at epoch e.
func (c *epochCache) note(a uintptr, e epoch, mask uint8, o op) {
	// The set's first entry becomes granule a's: its entry for a at e,
	// if any, or a new one, which evicts the second.
	s := c.set(a)
	switch c.find(a, e) {
	case &s[0]:
	case &s[1]:
		s[0], s[1] = s[1], s[0]
	default:
		s[1] = s[0]
		s[0] = epochEntry{a: a, e: e}
	}
	s[0].repeats |= coveredKinds[o.lane()/8] * uint32(mask)
}

// epochCache returns t's epoch cache for an access in a sampling period
// (sample) or outside one, or nil if it must not be used. Outside
// sampling periods it is used only if t has seen the latest sampling
// period (see the epochCache type) and made the cache in it: a goroutine
// that has never been sampled has no entries to find, and allocating one
// for it then would make a period without sampling cost memory.
func (t *thread) epochCache(sample bool) *epochCache {
	c := t.cache
	if sample {
		if c == nil {
			c = newEpochCache()
			t.cache = c
		}
		c.quiet = false
		return c
	}
	if c == nil || t.period != samplingPeriod.Load() {
		return nil
	}
	if !c.quiet {
		// The sampling period's entries follow its rules: forget them.
		c.reset()
		c.quiet = true
	}
	return c
}
