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
// -m: small functions that go build inlines, one of several field
// accesses, one with a loop that is versioned for the idle detector and
// one that declares a Ctx only for the calls in its loop, must inline
// instrumented too.
func TestInlinerInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the compiler")
	}
	mod := tempModule(t, map[string]string{
		"go.mod": "module example.com/inl\n\ngo 1.24\n",
		"p.go": `package inl

type T struct{ a, b, c, d, e, f int }

func (t *T) Sum() int { return t.a + t.b + t.c + t.d + t.e + t.f }

func Fold(b []byte) (n int) {
	for i, c := range b {
		switch {
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == '_' || c == '-':
			b[i] = ' '
			n++
		}
	}
	return n
}

func step(k int) int { return 3*k + 1 }

func Steps(n int) (k int) {
	for range n {
		k = step(k)
	}
	return k
}
`,
	})
	funcs := []string{"(*T).Sum", "Fold", "Steps"}
	plain := exec.Command("go", "build", "-gcflags=-m", ".")
	plain.Dir = mod
	out, err := plain.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range funcs {
		if !inlines(string(out), f) {
			t.Fatalf("go build does not inline %s:\n%s", f, out)
		}
	}
	var inst strings.Builder
	if code := run([]string{"-o", testOut, "build", "-C", mod, "-gcflags=-m", "."}, &inst, &inst); code != 0 {
		t.Fatalf("racegen build: exit %d\n%s", code, inst.String())
	}
	for _, f := range funcs {
		if !inlines(inst.String(), f) {
			t.Errorf("instrumented, %s does not inline:\n%s", f, inst.String())
		}
	}
}

// inlines reports whether the compiler's -m output says it can inline f.
func inlines(out, f string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, "can inline "+f) || strings.Contains(line, "can inline "+f+" ") {
			return true
		}
	}
	return false
}
