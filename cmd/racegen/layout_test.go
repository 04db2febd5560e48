package main

import (
	"strings"
	"testing"
)

// TestLayoutColdHooks builds a package with racegen and the compiler's
// -S: in a function of several field writes, every call of the access
// hook's slow path must come after the function's return in a sampling
// build, so that the tests of the gate run in a row, and before it at
// rate 1, where the slow paths always run.
func TestLayoutColdHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the compiler")
	}
	mod := tempModule(t, map[string]string{
		"go.mod": "module example.com/lay\n\ngo 1.24\n",
		"p.go": `package lay

type T struct{ a, b, c, d int }

//go:noinline
func (t *T) Reset() {
	t.a = 0
	t.b = 0
	t.c = 0
	t.d = 0
}
`,
	})
	tests := []struct {
		rate string
		cold bool // every call after the return
	}{
		{"0.01", true},
		{"0", true},
		{"1", false},
	}
	for _, tt := range tests {
		t.Run("rate="+tt.rate, func(t *testing.T) {
			var out strings.Builder
			if code := run([]string{"-rate=" + tt.rate, "-o", testOut, "build", "-C", mod, "-gcflags=-S", "."}, &out, &out); code != 0 {
				t.Fatalf("racegen build: exit %d\n%s", code, out.String())
			}
			text, ok := asmOf(out.String(), "example.com/lay.(*T).Reset")
			if !ok {
				t.Fatalf("no assembly of (*T).Reset in the output:\n%s", out.String())
			}
			ret, before, after := -1, 0, 0
			for i, line := range text {
				switch {
				case strings.Contains(line, "\tRET"):
					if ret < 0 {
						ret = i
					}
				case strings.Contains(line, "CALL\tgithub.com/racegen/racegen/runtime.hookAccess"):
					if ret < 0 {
						before++
					} else {
						after++
					}
				}
			}
			if before+after != 4 {
				t.Errorf("%d calls of hookAccess, want 4:\n%s", before+after, strings.Join(text, "\n"))
			}
			if tt.cold && before != 0 || !tt.cold && after != 0 {
				t.Errorf("%d calls of hookAccess before the return and %d after, want all %s:\n%s",
					before, after, map[bool]string{true: "after", false: "before"}[tt.cold], strings.Join(text, "\n"))
			}
		})
	}
}

// asmOf returns the lines of the compiler's -S listing of the function
// fn in out.
func asmOf(out, fn string) ([]string, bool) {
	var text []string
	in := false
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, " STEXT ") {
			if in {
				break
			}
			in = strings.HasPrefix(line, fn+" STEXT ")
			continue
		}
		if in {
			text = append(text, line)
		}
	}
	return text, in || len(text) > 0
}
