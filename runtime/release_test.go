package runtime

import "testing"

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
