//go:build linux && (amd64 || arm64)

package runtime

import (
	"sync"
	"syscall"
	"testing"
	"unsafe"
)

// resident returns how many of the system's pages of the n bytes at p are
// resident in memory (mincore(2)).
func resident(t *testing.T, p unsafe.Pointer, n uintptr) int {
	t.Helper()
	ps := uintptr(syscall.Getpagesize())
	lo := uintptr(p) &^ (ps - 1)
	vec := make([]byte, (uintptr(p)+n-lo+ps-1)/ps)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, lo, uintptr(len(vec))*ps, uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	k := 0
	for _, v := range vec {
		k += int(v & 1)
	}
	return k
}

// TestReleaseEmptyPage checks that below rate 1 the memory of a page's
// cells goes back to the system at the sweep that finds the page empty,
// whether the sweep removed its history or an unsampled write did before
// it, that at rate 1 it stays, and that a race is found on the page after
// the memory went back.
func TestReleaseEmptyPage(t *testing.T) {
	if syscall.Getpagesize() != 4096 {
		t.Skipf("system pages of %d bytes: a page's cells are not whole system pages", syscall.Getpagesize())
	}
	tests := []struct {
		name         string
		bounded      bool // below rate 1
		discard      bool // an unsampled write discards the history before the sweep
		wantResident bool // after the sweep
	}{
		{"below rate 1", true, false, false},
		{"below rate 1, emptied before the sweep", true, true, false},
		{"rate 1", false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			setBoundedHistory(t, tt.bounded)
			// A page of its own: a large object starts on a page
			// boundary, and no other test's history lies in it.
			buf := make([]uint64, 4*pageLen)
			pacerKeep = append(pacerKeep, &buf[0])
			a := unsafe.Pointer(&buf[pageLen])
			if uintptr(a)%pageBytes != 0 {
				t.Fatalf("object at %p: not on a page boundary", a)
			}
			setSampling(t, true)
			Write(a, 8, newSite())
			var mu sync.Mutex
			Lock(&mu) // a release in a sampling period: a new epoch
			Unlock(&mu)
			p := shadow.pageOf(uintptr(a), false)
			if p == nil || !p.mapped {
				t.Skip("cells are not in mapped memory")
			}
			cells, size := unsafe.Pointer(p.c), unsafe.Sizeof(*p.c)
			if resident(t, cells, size) == 0 {
				t.Fatal("no cell memory resident after a sampled write")
			}
			setSampling(t, false)
			if tt.discard {
				Write(a, 8, newSite()) // ordered after the first: its history goes
				if cellsAt(a) {
					t.Fatal("history kept after an unsampled write of the same goroutine")
				}
				if resident(t, cells, size) == 0 {
					t.Fatal("cell memory given back before a sweep")
				}
			}
			expire(samplingPeriod.Load())
			if cellsAt(a) {
				t.Fatal("history kept after the expiry")
			}
			if got := resident(t, cells, size) != 0; got != tt.wantResident {
				t.Errorf("cell memory resident after the expiry = %v, want %v", got, tt.wantResident)
			}

			// The page records and reports as before.
			before := Races()
			setSampling(t, true)
			site1, site2 := newSite(), newSite()
			inGoroutine(func() { Write(a, 8, site1) })
			Write(a, 8, site2)
			if Races() == before {
				t.Error("race on the page after its memory went back not reported")
			}
		})
	}
}
