package runtime

import (
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestSyncLayout checks the layout of package sync's types that the
// wrappers read or name by offset (syncaccess.go): a Go release that
// changes it must fail here, not mislead the detector.
func TestSyncLayout(t *testing.T) {
	offset := func(typ reflect.Type, path ...string) uintptr {
		t.Helper()
		var off uintptr
		for _, name := range path {
			f, ok := typ.FieldByName(name)
			if !ok {
				t.Fatalf("%v has no field %s", typ, name)
			}
			off += f.Offset
			typ = f.Type
		}
		return off
	}
	wg := reflect.TypeOf(sync.WaitGroup{})
	if got := offset(wg, "state"); got != waitGroupState {
		t.Errorf("WaitGroup.state at %d, want %d", got, waitGroupState)
	}
	if got := offset(wg, "sema"); got != waitGroupSema {
		t.Errorf("WaitGroup.sema at %d, want %d", got, waitGroupSema)
	}
	if got := offset(reflect.TypeOf(sync.Mutex{}), "mu", "state"); got != 0 {
		t.Errorf("Mutex's state at %d, want 0", got)
	}
	if got := offset(reflect.TypeOf(sync.RWMutex{}), "w"); got != 0 {
		t.Errorf("RWMutex.w at %d, want 0", got)
	}
}

// TestSyncSites checks that the sites of sync's methods name them.
func TestSyncSites(t *testing.T) {
	for site, want := range map[uint64]string{
		siteMutexLock:      "sync.(*Mutex).Lock",
		siteRWMutexRUnlock: "sync.(*RWMutex).RUnlock",
		siteWaitGroupWait:  "sync.(*WaitGroup).Wait",
	} {
		p, ok := sitePosition(site)
		if !ok || p.Func != want || !strings.HasSuffix(p.File, ".go") || p.Line == 0 {
			t.Errorf("site %#x: %+v, %v; want %s at a line of a Go file", site, p, ok, want)
		}
	}
}
