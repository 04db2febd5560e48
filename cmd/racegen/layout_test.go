package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayoutColdHooks builds a package with racegen and the compiler's
// -S: in a function of several field writes, every call of the access
// hook's slow path must come after the function's return, so that the
// tests of the gate run in a row.
func TestLayoutColdHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the compiler")
	}
	mod := t.TempDir()
	files := map[string]string{
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
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	if code := run([]string{"-o", testOut, "build", "-C", mod, "-gcflags=-S", "."}, &out, &out); code != 0 {
		t.Fatalf("racegen build: exit %d\n%s", code, out.String())
	}
	text, ok := asmOf(out.String(), "example.com/lay.(*T).Reset")
	if !ok {
		t.Fatalf("no assembly of (*T).Reset in the output:\n%s", out.String())
	}
	ret, calls := -1, 0
	for i, line := range text {
		switch {
		case strings.Contains(line, "\tRET"):
			if ret < 0 {
				ret = i
			}
		case strings.Contains(line, "CALL\tgithub.com/racegen/racegen/runtime.hookAccess"):
			calls++
			if ret < 0 {
				t.Errorf("a hook's call comes before the function returns:\n%s", strings.Join(text, "\n"))
				return
			}
		}
	}
	if calls != 4 {
		t.Errorf("%d calls of hookAccess, want 4:\n%s", calls, strings.Join(text, "\n"))
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
