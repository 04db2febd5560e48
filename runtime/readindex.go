package runtime

// A read set (cellExt.rs) holds an entry for each slot whose goroutine
// read the granule concurrently with the others since its last write, and
// two questions are asked of it by slot: recordRead looks for the
// reader's entry, to replace it, and readSetHas for its entry at the
// reader's epoch. Most read sets have two entries and are scanned, but
// memory that every goroutine reads and none writes gathers an entry for
// each of up to opts.slots slots: x/sync's errgroup.Group.done reads the
// group's sem in each goroutine of Group.Go, and BenchmarkGo's goroutines,
// which nothing orders with each other until Wait, filled a read set of
// about a thousand entries that every read scanned twice (a third of the
// benchmark's time at rate 1, pprof).
//
// A read set of readIndexMin entries or more is indexed: its extension
// keeps a hash table of positions by slot, so that both questions take a
// probe or two. The index answers exactly as the scan does, the first
// entry of a slot: a slot has two entries only when shareReads made the
// set from a goroutine's own earlier read of other bytes and its new one
// (recordRead replaces a slot's entry and appends only for a slot it
// does not find), and then readSetHas, which looks for an epoch rather
// than a slot, scans. The index is rebuilt whenever entries move or go
// (clearReads, discardRead) and extended when recordRead appends one
// (rebuilt, with four buckets an entry, once it is half full), so it costs
// nothing for small sets and, besides a probe, an O(n) pass only on the
// changes that were O(n) already or that double the set.
const readIndexMin = 16

// A readIndex maps slots to their first entry in a read set.
type readIndex struct {
	// pos is an open-addressing table with linear probing: 0 for an
	// empty bucket, or one more than the position in the read set of
	// the first entry of a slot. Its length is a power of two, at least
	// twice the number of slots it holds.
	pos   []uint32
	shift uint8 // 64 - log2(len(pos)), for bucket
	slots int   // distinct slots in pos
	dups  bool  // some slot has two entries in the read set
}

// bucket returns the first bucket to probe for slot tid.
func (x *readIndex) bucket(tid uint32) int {
	return int(uint64(tid) * 0x9e3779b97f4a7c15 >> x.shift)
}

// find returns the position in rs, the read set x indexes, of slot tid's
// first entry, or -1 if it has none.
func (x *readIndex) find(rs []entry, tid uint32) int {
	m := len(x.pos) - 1
	for b := x.bucket(tid); ; b = (b + 1) & m {
		p := x.pos[b]
		if p == 0 {
			return -1
		}
		if rs[p-1].e.tid() == tid {
			return int(p - 1)
		}
	}
}

// full reports whether the table has no room for another slot: it is
// kept at most half full, so that a probe finds an empty bucket soon.
func (x *readIndex) full() bool { return 2*(x.slots+1) > len(x.pos) }

// insert indexes rs[i], which no earlier entry of its slot precedes unless
// that entry is indexed already, in a table that is not full. It calls
// nothing, so that it needs no stack check: recordRead runs it at the
// bottom of the access path (TestAccessFitsNewStack).
func (x *readIndex) insert(rs []entry, i int) {
	tid := rs[i].e.tid()
	m := len(x.pos) - 1
	for b := x.bucket(tid); ; b = (b + 1) & m {
		p := x.pos[b]
		if p == 0 {
			x.pos[b] = uint32(i + 1)
			x.slots++
			return
		}
		if rs[p-1].e.tid() == tid {
			x.dups = true
			return
		}
	}
}

// build indexes the entries of rs in order, in a table of at least
// buckets buckets, which must be at least twice len(rs).
func (x *readIndex) build(rs []entry, buckets int) {
	bits := uint8(5)
	for 1<<bits < buckets {
		bits++
	}
	if len(x.pos) == 1<<bits {
		clear(x.pos)
	} else {
		x.pos = make([]uint32, 1<<bits)
	}
	x.shift, x.slots, x.dups = 64-bits, 0, false
	for i := range rs {
		x.insert(rs, i)
	}
}

// readerOf returns the position of slot tid's first entry in the read set
// rs, x's, or -1 if it has none.
func (x *cellExt) readerOf(rs []entry, tid uint32) int {
	if x.idx != nil {
		return x.idx.find(rs, tid)
	}
	for i := range rs {
		if rs[i].e.tid() == tid {
			return i
		}
	}
	return -1
}

// reindex makes the index agree with the read set after its entries
// moved or went: it rebuilds an index, makes one for a large set without,
// and drops one whose set has shrunk below readIndexMin.
func (x *cellExt) reindex() {
	switch {
	case len(x.rs) < readIndexMin:
		x.idx = nil
	default:
		if x.idx == nil {
			x.idx = new(readIndex)
		}
		x.idx.build(x.rs, 4*len(x.rs))
	}
}
