package runtime

import (
	goruntime "runtime"
	"testing"
	"unsafe"
)

// TestPageTable: granules of one 4 KiB page share a page of the table,
// lookups without make create nothing, and addresses beyond the table's
// reach have no history.
func TestPageTable(t *testing.T) {
	a := uintptr(heapObject())
	p := shadow.pageOf(a, true)
	if p == nil || p.base != a&^4095 {
		t.Fatalf("pageOf(%#x) = %v, want a page at %#x", a, p, a&^4095)
	}
	if q := shadow.pageOf(a&^4095+4088, false); q != p {
		t.Errorf("the last granule of the page has page %p, want %p", q, p)
	}
	if got, want := p.cell(a+7), &p.c[a>>3%pageLen]; got != want {
		t.Errorf("cell(%#x) = %p, want %p", a+7, got, want)
	}
	const unused = 0x1000 // the second page of the address space is never mapped
	if shadow.pageOf(unused, false) != nil {
		t.Errorf("pageOf without make made a page")
	}
	if shadow.pageOf(1<<addrBits, true) != nil {
		t.Errorf("pageOf beyond %d bits = non-nil", addrBits)
	}
}

// TestShadowPagesOffHeap: the shadow's pages, made for each 4 KiB that
// instrumented code first touches, are not Go heap objects, which a
// program's testing.AllocsPerRun would count as its own.
func TestShadowPagesOffHeap(t *testing.T) {
	const pages = 101 // AllocsPerRun runs the function once more than asked
	buf := make([]byte, pages*pageBytes+pageBytes)
	base := (uintptr(unsafe.Pointer(&buf[0])) + pageBytes - 1) &^ (pageBytes - 1)
	next := base
	allocs := testing.AllocsPerRun(pages-1, func() {
		if p := shadow.pageOf(next, true); p == nil || p.base != next {
			t.Fatalf("no page for %#x", next)
		}
		next += pageBytes
	})
	goruntime.KeepAlive(buf)
	if allocs != 0 {
		t.Errorf("%v allocations per new page, want 0", allocs)
	}
}
