package main

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompilerPatches applies each of racegen's changes to the
// toolchain's own compiler source, which must still parse, and checks
// that a source without an anchor, or with one twice, is refused.
func TestCompilerPatches(t *testing.T) {
	goroot := strings.TrimSpace(goEnv("GOROOT"))
	if goroot == "" {
		t.Skip("no go command")
	}
	for _, p := range compilerPatches {
		name := filepath.Base(p.file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(goroot, p.file))
			if err != nil {
				t.Fatal(err)
			}
			out, err := patchSource(name, src, p.edits)
			if err != nil {
				t.Fatalf("the patch does not apply to %s: %v", goroot, err)
			}
			if _, err := parser.ParseFile(token.NewFileSet(), name, out, 0); err != nil {
				t.Errorf("the patched %s does not parse: %v", name, err)
			}
			for _, e := range p.edits {
				if !strings.Contains(string(out), e.text) {
					t.Errorf("the patched %s lacks %q", name, firstLine(e.text))
				}
			}
		})
	}

	edits := compilerPatches[0].edits
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"no anchor", "package inline\n", "x.go has no"},
		{"anchor twice", "package inline\n" + edits[0].anchor + edits[0].anchor, "x.go has 2 places"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := patchSource("x.go", []byte(tt.src), edits)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("patchSource: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestInlinerInlines builds a package with racegen and the compiler's
// -m: a small function of several field accesses, which go build
// inlines, must inline instrumented too.
func TestInlinerInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the compiler")
	}
	mod := tempModule(t, map[string]string{
		"go.mod": "module example.com/inl\n\ngo 1.24\n",
		"p.go": `package inl

type T struct{ a, b, c, d, e, f int }

func (t *T) Sum() int { return t.a + t.b + t.c + t.d + t.e + t.f }
`,
	})
	plain := exec.Command("go", "build", "-gcflags=-m", ".")
	plain.Dir = mod
	if out, err := plain.CombinedOutput(); err != nil || !strings.Contains(string(out), "can inline (*T).Sum") {
		t.Fatalf("go build does not inline (*T).Sum (%v):\n%s", err, out)
	}
	var out strings.Builder
	if code := run([]string{"-o", testOut, "build", "-C", mod, "-gcflags=-m", "."}, &out, &out); code != 0 {
		t.Fatalf("racegen build: exit %d\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "can inline (*T).Sum") {
		t.Errorf("instrumented, (*T).Sum does not inline:\n%s", out.String())
	}
}
