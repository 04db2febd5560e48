package runtime

import (
	"sync"
	"testing"
	"unsafe"
)

// TestEpochCacheSets: granules that share a set stay cached two at a
// time, whatever order they alternate in, and a third evicts the one
// noted least recently.
func TestEpochCacheSets(t *testing.T) {
	const stride = epochCacheSets * 8 // granules this far apart share a set
	const a, b, c = 0x10000, 0x10000 + stride, 0x10000 + 2*stride
	e := mkEpoch(1, 5)
	tests := []struct {
		name   string
		notes  []uintptr
		cached []uintptr
		gone   []uintptr
	}{
		{"two alternating", []uintptr{a, b, a, b, a}, []uintptr{a, b}, nil},
		{"a third evicts the older", []uintptr{a, b, c}, []uintptr{b, c}, []uintptr{a}},
		{"a repeat makes it the newer", []uintptr{a, b, a, c}, []uintptr{a, c}, []uintptr{b}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ec epochCache
			for _, g := range tt.notes {
				ec.note(g, e, 0xff, opWrite)
			}
			for _, g := range tt.cached {
				if !ec.covered(g, e, 0xff, opWrite) {
					t.Errorf("%#x not cached", g)
				}
			}
			for _, g := range tt.gone {
				if ec.covered(g, e, 0xff, opWrite) {
					t.Errorf("%#x still cached", g)
				}
			}
		})
	}
}

func TestEpochCache(t *testing.T) {
	const a, b = 0x1000, 0x1008
	e1, e2 := mkEpoch(1, 5), mkEpoch(1, 6)
	const (
		rd  = opRead
		wr  = opWrite
		ard = opRead | opAtomic
		awr = opWrite | opAtomic
	)
	tests := []struct {
		name   string
		noted  op // an access of bytes 0x0f of a at e1
		a      uintptr
		e      epoch
		mask   uint8
		o      op
		cached bool
	}{
		{"same bytes read again", rd, a, e1, 0x0f, rd, true},
		{"fewer bytes read", rd, a, e1, 0x03, rd, true},
		{"other bytes read", rd, a, e1, 0xf0, rd, false},
		{"more bytes read", rd, a, e1, 0xff, rd, false},
		{"write after read only", rd, a, e1, 0x0f, wr, false},
		{"read after write", wr, a, e1, 0x0f, rd, true},
		{"write after write", wr, a, e1, 0x0f, wr, true},
		{"later epoch", rd, a, e2, 0x0f, rd, false},
		{"other granule", rd, b, e1, 0x0f, rd, false},
		// An atomic access is covered by any access of its bytes, a
		// plain one only by plain ones.
		{"atomic write after write", wr, a, e1, 0x0f, awr, true},
		{"atomic read after read", rd, a, e1, 0x0f, ard, true},
		{"atomic write after atomic write", awr, a, e1, 0x0f, awr, true},
		{"atomic read after atomic write", awr, a, e1, 0x0f, ard, true},
		{"atomic write after atomic read", ard, a, e1, 0x0f, awr, false},
		{"write after atomic write", awr, a, e1, 0x0f, wr, false},
		{"read after atomic write", awr, a, e1, 0x0f, rd, false},
		{"read after atomic read", ard, a, e1, 0x0f, rd, false},
		{"atomic read after write", wr, a, e1, 0x0f, ard, true},
		{"atomic read after atomic read", ard, a, e1, 0x0f, ard, true},
		{"atomic write after read", rd, a, e1, 0x0f, awr, false},
		{"write after atomic read", ard, a, e1, 0x0f, wr, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c epochCache
			c.note(a, e1, 0x0f, tt.noted)
			if got := c.covered(tt.a, tt.e, tt.mask, tt.o); got != tt.cached {
				t.Errorf("covered = %v, want %v", got, tt.cached)
			}
		})
	}
	var c epochCache
	c.note(a, e1, 0xff, wr)
	if !c.covered(a, e1, 0x01, rd) || !c.covered(a, e1, 0xff, wr) {
		t.Errorf("a write does not cover later reads and writes of its bytes")
	}
	c.note(a, e1, 0xff, awr)
	if !c.covered(a, e1, 0xff, wr) {
		t.Errorf("an atomic write after a plain one uncovered the plain write")
	}
}

// TestEpochCacheSpare: a goroutine that ends gives its epoch cache to the
// next one to make a cache, empty: an entry left from the goroutine that
// ended would let the next one skip an access it never made.
func TestEpochCacheSpare(t *testing.T) {
	const a = 0x1000
	e := mkEpoch(1, 5)
	for range 10 { // sync.Pool may drop the spare at a GC: try again
		old := &thread{cache: newEpochCache()}
		old.cache.note(a, e, 0xff, opWrite)
		old.cache.askRange(a, a+64, e, true) // notes the range
		spare := old.cache
		old.retire()
		if old.cache != nil {
			t.Fatal("retire kept the cache")
		}
		c := newEpochCache()
		if c != spare {
			continue
		}
		if c.ranges != nil || c.covered(a, e, 0xff, opWrite) || c.askRange(a, a+64, e, true) {
			t.Fatalf("a spare cache came back with its entries: %+v", c.granules[a>>3%epochCacheSets])
		}
		return
	}
	t.Fatal("newEpochCache never returned the spare cache")
}

// TestEpochCacheRelease: an access after a release is checked again, not
// taken for the one before it, whether the granule entries or the range
// entries remembered it.
func TestEpochCacheRelease(t *testing.T) {
	tests := []struct {
		name  string
		write func(x unsafe.Pointer, site uint64)
	}{
		{"granule", func(x unsafe.Pointer, site uint64) { Write(x, 8, site) }},
		{"range", func(x unsafe.Pointer, site uint64) { WriteRange(x, 32, site) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			words := new([4]uint64)
			keep = append(keep, words)
			x := unsafe.Pointer(words)
			first, ordered, unordered := newSite(), newSite(), newSite()
			before := Races()
			tt.write(x, first)
			Lock(&mu)
			Unlock(&mu) // a new epoch
			inGoroutine(func() {
				Lock(&mu)
				tt.write(x, ordered) // ordered after the first write
				Unlock(&mu)
			})
			tt.write(x, unordered) // not ordered after the goroutine's write
			if Races() == before {
				t.Errorf("race between a write after a release and another goroutine's write not reported")
			}
		})
	}
}

// TestEpochCacheRanges: a noted range covers the same range or a shorter
// one from its start, in its epoch, reads by a write too; askRange notes
// what it does not cover.
func TestEpochCacheRanges(t *testing.T) {
	const lo, hi = 0x1000, 0x1100
	e1, e2 := mkEpoch(1, 5), mkEpoch(1, 6)
	tests := []struct {
		name      string
		lo, hi    uintptr
		e         epoch
		write     bool
		noteWrite bool
		cached    bool
	}{
		{"same range read again", lo, hi, e1, false, false, true},
		{"shorter range from the same start", lo, hi - 8, e1, false, false, true},
		{"longer range", lo, hi + 8, e1, false, false, false},
		{"range starting inside", lo + 8, hi, e1, false, false, false},
		{"write after read", lo, hi, e1, true, false, false},
		{"read after write", lo, hi, e1, false, true, true},
		{"write after write", lo, hi, e1, true, true, true},
		{"later epoch", lo, hi, e2, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c epochCache
			if c.askRange(lo, hi, e1, tt.noteWrite) {
				t.Fatalf("an empty cache covers a range")
			}
			if got := c.askRange(tt.lo, tt.hi, tt.e, tt.write); got != tt.cached {
				t.Errorf("askRange = %v, want %v", got, tt.cached)
			}
			if !c.askRange(tt.lo, tt.hi, tt.e, tt.write) {
				t.Errorf("askRange again = false: the first did not note the range")
			}
		})
	}
}

// TestEpochCacheRangesGrow: a goroutine that repeats more ranges in one
// epoch than the smallest table holds finds most of them cached after
// some rounds (those whose sets hold three or more of them miss every
// round), the table growing up to its largest size, while one
// that repeats a few keeps the smallest table; only ranges of the current
// epoch that evict each other make it grow.
func TestEpochCacheRangesGrow(t *testing.T) {
	repeat := func(n int, e epoch) []epoch {
		es := make([]epoch, n)
		for i := range es {
			es[i] = e
		}
		return es
	}
	e1, e2, e3 := mkEpoch(1, 5), mkEpoch(1, 6), mkEpoch(1, 7)
	tests := []struct {
		name             string
		ranges           int
		stride           uintptr
		e                []epoch // the epochs of the rounds
		minBits, maxBits uint8   // the table's size at the end
		minHits          int     // ranges the last round finds cached, at least
	}{
		{"few ranges", 16, 0x1000, repeat(3, e1), minRangeBits, minRangeBits, 16},
		{"rows of a matrix", 300, 192 * 8, repeat(16, e1), minRangeBits + 1, maxRangeBits, 240},
		{"pages", 300, 0x1000, repeat(16, e1), minRangeBits + 1, maxRangeBits, 240},
		{"words", 300, 8, repeat(16, e1), minRangeBits + 1, maxRangeBits, 240},
		{"more than the largest table", 4096, 0x1000, repeat(4, e1), maxRangeBits, maxRangeBits, 0},
		{"one round an epoch", 100, 0x1000, []epoch{e1, e2, e3}, minRangeBits, minRangeBits + 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c epochCache
			hits := 0
			for _, e := range tt.e {
				hits = 0
				for i := range tt.ranges {
					lo := 0x100000 + uintptr(i)*tt.stride
					if c.askRange(lo, lo+256, e, false) {
						hits++
					}
				}
			}
			if c.rangeBits < tt.minBits || c.rangeBits > tt.maxBits {
				t.Errorf("table of 1<<%d sets, want 1<<%d to 1<<%d", c.rangeBits, tt.minBits, tt.maxBits)
			}
			if hits < tt.minHits {
				t.Errorf("last round found %d of %d ranges cached, want %d at least", hits, tt.ranges, tt.minHits)
			}
		})
	}
}

// TestEpochCacheAtomic: a goroutine's plain read after its atomic read of
// the same word, in one epoch, is recorded, so that another goroutine's
// unordered atomic store races with it; after a second atomic read
// instead, nothing races.
func TestEpochCacheAtomic(t *testing.T) {
	for _, plain := range []bool{true, false} {
		x := new(uint64)
		keep = append(keep, x)
		load, second, store := newSite(), newSite(), newSite()
		before := Races()
		run := forkWaiting(func() { AtomicStoreUint64(x, 1, store) })
		AtomicLoadUint64(x, load)
		if plain {
			Read(unsafe.Pointer(x), 8, second)
		} else {
			AtomicLoadUint64(x, second)
		}
		run()
		if got, want := Races()-before, map[bool]int{true: 1, false: 0}[plain]; got != want {
			t.Errorf("plain second read %v: %d races, want %d", plain, got, want)
		}
	}
}
