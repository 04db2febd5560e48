package runtime

import (
	"slices"
	"testing"
	"unsafe"
)

// TestLineLockSet checks that the set of a page's line locks holds the
// lock of every line of the page and nothing else, and that lock and
// unlock take and release each of them once, though lines share locks.
func TestLineLockSet(t *testing.T) {
	for _, base := range []uintptr{0, pageBytes, 0xc000123000, 0x7f0012345000} {
		var s lineLockSet
		s.add(base, base+pageBytes)
		want := map[*spinLock]bool{}
		for a := base; a < base+pageBytes; a += lineBytes {
			want[lineLock(a)] = true
		}
		got := map[*spinLock]bool{}
		s.each(func(l *spinLock) {
			if got[l] {
				t.Errorf("base %#x: lock %p visited twice", base, l)
			}
			got[l] = true
		})
		if len(got) != len(want) {
			t.Errorf("base %#x: %d locks in the set, want %d", base, len(got), len(want))
		}
		for l := range want {
			if !got[l] {
				t.Errorf("base %#x: a line's lock %p is not in the set", base, l)
			}
		}
		s.lock()
		for l := range want {
			if l.v.Load() != 1 {
				t.Errorf("base %#x: lock %p not held after lock", base, l)
			}
		}
		s.unlock()
		for l := range want {
			if l.v.Load() != 0 {
				t.Errorf("base %#x: lock %p held after unlock", base, l)
			}
		}
	}
}

// TestReleaserRuns checks that a sweep gives back the cell memory of
// empty pages with one call for each stretch of them whose cells lie back
// to back, of at most releaseRun pages, and leaves a page that holds
// history alone.
func TestReleaserRuns(t *testing.T) {
	if !cellsDiscardable() {
		t.Skip("cell memory is not the system's to take back here")
	}
	// Twenty pages from one chunk, whose cells lie back to back.
	const n = 20
	cellArena.mu.Lock()
	left := cellArena.left
	cellArena.mu.Unlock()
	if left < n {
		for range left {
			newPage(0)
		}
	}
	pages := make([]*page, n)
	for i := range pages {
		// Pages outside the table, at addresses no test uses.
		pages[i] = newPage(0x7e0000000000 + uintptr(i)*pageBytes)
		if !pages[i].mapped {
			t.Skip("cells are not in mapped memory")
		}
		pages[i].dirty.Store(true)
	}
	const busy = 5
	pages[busy].n.Store(1) // history the sweep left
	pages[n-1].dirty.Store(false)

	type call struct{ first, pages int }
	var calls []call
	defer func(d func(unsafe.Pointer, uintptr) bool) { discard = d }(discard)
	discard = func(p unsafe.Pointer, size uintptr) bool {
		first := -1
		for i, pg := range pages {
			if unsafe.Pointer(pg.c) == p {
				first = i
			}
		}
		calls = append(calls, call{first, int(size / cellArena.size)})
		return true
	}
	var r releaser
	for _, p := range pages {
		r.add(p)
	}
	r.flush()

	// Pages 0-15 make the first run, in which the busy page splits two
	// stretches; the last page was not written since it was given back.
	want := []call{{0, busy}, {busy + 1, releaseRun - busy - 1}, {releaseRun, n - 1 - releaseRun}}
	if !slices.Equal(calls, want) {
		t.Errorf("calls (first page, pages) = %v, want %v", calls, want)
	}
	for i, p := range pages {
		if p.dirty.Load() != (i == busy) {
			t.Errorf("page %d: dirty = %v after the sweep, want %v", i, p.dirty.Load(), i == busy)
		}
	}
}
