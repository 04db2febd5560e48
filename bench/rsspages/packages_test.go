package main

import (
	"math"
	"testing"
)

func TestPackageOf(t *testing.T) {
	tests := []struct{ name, want string }{
		{"runtime.mallocgc", "runtime"},
		{"regexp/syntax.(*parser).push", "regexp/syntax"},
		{"github.com/dgraph-io/ristretto/v2.(*lockedMap[go.shape.int]).Update", "github.com/dgraph-io/ristretto/v2"},
		{"gopkg.in/yaml%2ev3.unmarshal", "gopkg.in/yaml%2ev3"}, // the linker escapes dots after the last slash
		{"_rt0_amd64", "_rt0_amd64"},
	}
	for _, tt := range tests {
		if got := packageOf(tt.name); got != tt.want {
			t.Errorf("packageOf(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestResidentByPackage(t *testing.T) {
	text := section{".text", 0x401000, 0x3000}
	fns := []function{
		{"a.f", 0x401000, 0x800},  // first half of the first page
		{"b.g", 0x401800, 0x1000}, // second half of it, first half of the second
		{"a.h", 0x403000, 0x400},  // a quarter of the third page, then padding
	}
	pages := map[uint64]bool{0x401000: true, 0x403000: true, 0x404000: true}
	got := residentByPackage(fns, text, pages)
	want := map[string]float64{"a": 2 + 1, "b": 2, "(none)": 3}
	if len(got) != len(want) {
		t.Fatalf("residentByPackage = %v, want %v", got, want)
	}
	for p, kib := range want {
		if math.Abs(got[p]-kib) > 1e-9 {
			t.Errorf("package %s: %v KiB, want %v", p, got[p], kib)
		}
	}
}
