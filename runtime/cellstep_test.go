package runtime

import (
	"fmt"
	"testing"
)

// TestCellSteps checks writeStep and readStep against the general rules
// they stand for (checkWrite, clearReads and recordWrite; checkRead and
// recordRead), on every cell without a read set or writes of other bytes
// that the epochs, masks and atomicity below make, with no extension and
// with an emptied one (which oneStep lets take the steps), for every
// access accessGranule would give them: the same conflict, and the same
// history afterwards.
func TestCellSteps(t *testing.T) {
	thr := stepThread()
	e := thr.epoch()
	epochs := []epoch{
		0,
		e,             // this epoch
		mkEpoch(1, 3), // thr's own, earlier
		mkEpoch(2, 4), // another thread's, ordered before
		mkEpoch(2, 7), // another thread's, concurrent
		mkEpoch(3, 1), // a thread thr knows nothing of
	}
	masks := []uint8{0x01, 0x0f, 0xf0, 0x3c, 0xff}
	cells := stepCells(epochs, masks, []cellFlags{0, cellWAtomic, cellRAtomic, cellWAtomic | cellRAtomic, cellGlobal})
	checked := 0
	// pair returns two copies of c0 for the general rules and the step,
	// each with an emptied extension of its own if emptied is set.
	pair := func(c0 cell, emptied bool) (general, step cell) {
		general, step = c0, c0
		if emptied {
			general.ext()
			step.ext()
		}
		return general, step
	}
	for _, c0 := range cells {
		for _, emptied := range []bool{false, true} {
			for _, mask := range masks {
				for _, atomic := range []bool{false, true} {
					if !c0.sameEpoch(c0.w, e, mask, true, atomic) && c0.wmask&^mask == 0 {
						general, step := pair(c0, emptied)
						if !step.oneStep(mask, opWrite) {
							t.Fatalf("a write of %#02x to %+v (emptied extension %v) takes no step", mask, c0, emptied)
						}
						var cfg, cfs conflict
						fg := general.checkWrite(thr, mask, atomic, &cfg)
						general.clearReads(mask)
						general.recordWrite(e, mask, 99, atomic)
						fs := step.writeStep(thr, e, mask, 99, atomic, &cfs)
						compareSteps(t, "write", c0, mask, atomic, fg, fs, cfg, cfs, &general, &step)
						checked++
					}
					if !c0.sameEpoch(c0.r, e, mask, false, atomic) {
						general, step := pair(c0, emptied)
						if !step.oneStep(mask, opRead) {
							t.Fatalf("a read of %#02x of %+v (emptied extension %v) takes no step", mask, c0, emptied)
						}
						var cfg, cfs conflict
						fg := general.checkRead(thr, mask, atomic, &cfg)
						general.recordRead(thr, e, mask, 99, atomic)
						fs := step.readStep(thr, e, mask, 99, atomic, &cfs)
						compareSteps(t, "read", c0, mask, atomic, fg, fs, cfg, cfs, &general, &step)
						checked++
					}
				}
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("checked %d accesses; the combinations above should give more", checked)
	}
}

// stepThread returns the goroutine state the cell tests make accesses
// as: slot 1 at clock 5, which knows slot 2 up to clock 4.
func stepThread() *thread {
	thr := &thread{tid: 1, vc: &vclock{}}
	thr.ep.Store(uint64(mkEpoch(1, 5)))
	thr.vc.set(2, 4) // thread 2's clock 4 happened before thr's present
	return thr
}

// The sites of the last write and the last read of stepCells' cells.
const stepWSite, stepRSite = 10, 20

// stepCells returns every cell without an extension whose last write and
// last read are each at one of epochs, of one of masks (of no bytes at
// epoch 0, no access), from stepWSite and stepRSite, begun at GC count 3,
// with each of flags.
func stepCells(epochs []epoch, masks []uint8, flags []cellFlags) []cell {
	masksOf := func(e epoch) []uint8 {
		if e == 0 {
			return []uint8{0} // no access, no bytes
		}
		return masks
	}
	var cells []cell
	for _, w := range epochs {
		for _, wm := range masksOf(w) {
			for _, r := range epochs {
				for _, rm := range masksOf(r) {
					for _, f := range flags {
						cells = append(cells, cell{w: w, wmask: wm, r: r, rmask: rm, wsite: stepWSite, rsite: stepRSite, gen: 3, flags: f})
					}
				}
			}
		}
	}
	return cells
}

// compareSteps reports a difference between the general rules' result
// (fg, cfg, general) and the step's (fs, cfs, step) for an access of the
// bytes mask to the cell c0, and drops the extensions the rules made.
func compareSteps(t *testing.T, kind string, c0 cell, mask uint8, atomic bool, fg, fs bool, cfg, cfs conflict, general, step *cell) {
	t.Helper()
	if fg != fs || cfg != cfs {
		t.Errorf("%s of %#02x (atomic %v) to %+v: general rules found %v %+v, step %v %+v", kind, mask, atomic, c0, fg, cfg, fs, cfs)
	}
	if g, s := cellState(general), cellState(step); g != s {
		t.Errorf("%s of %#02x (atomic %v) to %+v:\ngeneral rules leave %s\nstep leaves          %s", kind, mask, atomic, c0, g, s)
	}
	general.drop()
	step.drop()
}

// cellState renders a cell's history, its extension's lists by value.
func cellState(c *cell) string {
	return fmt.Sprintf("w=%v/%#02x@%d r=%v/%#02x@%d gen=%d flags=%b rs=%v wx=%v",
		c.w, c.wmask, c.wsite, c.r, c.rmask, c.rsite, c.gen, c.flags, c.readSet(), c.extraWrites())
}
