package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestSectionOf(t *testing.T) {
	secs := []section{{".text", 0x401000, 0x2000}, {".rodata", 0x403000, 0x1800}}
	tests := []struct {
		addr uint64
		want string
	}{
		{0x401000, ".text"},
		{0x402000, ".text"},
		{0x403000, ".rodata"},
		{0x404000, ".rodata"}, // the section's last, partial page
		{0x405000, "?"},
		{0x400000, "?"},
	}
	for _, tt := range tests {
		if got := sectionOf(secs, tt.addr); got != tt.want {
			t.Errorf("sectionOf(%#x) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// TestRunSelf runs this test binary, which is position-dependent, as the
// program: its text must be resident and the peaks positive.
func TestRunSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/pagemap"); err != nil {
		t.Skip("no /proc/self/pagemap")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run([]string{exe, "-test.run", "^TestSectionOf$"}, time.Millisecond, 0, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), " .text\n") || strings.Contains(out.String(), "peak RssAnon 0 KiB") {
		t.Errorf("no resident .text or no anonymous memory in the report:\n%s", out.String())
	}
}
