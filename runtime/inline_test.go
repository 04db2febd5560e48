package runtime_test

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestHooksInline compiles testdata/inline, where the expression hooks
// (R and W, and those of maps, slices, copy and append) and the atomic
// loads and stores are called as
// instrumented code calls them, and checks that the compiler inlines
// every call: each is within a few points of the inliner's budget, and a
// change that puts one over it turns every such operation of every
// instrumented program, even with the gate closed, into a call.
func TestHooksInline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	goCmd := goCommand(t)
	cmd := exec.Command(goCmd, "build", "-a", "-gcflags=github.com/racegen/racegen/runtime/testdata/inline=-m", "-o", os.DevNull, "./testdata/inline")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// inline.go:LINE:COL: inlining call to runtime.R[...]
	inlined := make(map[int]map[string]bool) // line -> hooks inlined there
	re := regexp.MustCompile(`inline\.go:(\d+):\d+: inlining call to runtime\.(\w+)`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		line, _ := strconv.Atoi(m[1]) // \d+
		if inlined[line] == nil {
			inlined[line] = make(map[string]bool)
		}
		inlined[line][m[2]] = true
	}
	f, err := os.Open("testdata/inline/inline.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	wants := 0
	for line := 1; sc.Scan(); line++ {
		_, want, ok := strings.Cut(sc.Text(), "// want ")
		if !ok {
			continue
		}
		wants++
		for _, h := range strings.Fields(want) {
			if !inlined[line][h] {
				t.Errorf("inline.go:%d: %s is not inlined", line, h)
			}
		}
	}
	if wants == 0 {
		t.Fatal("testdata/inline/inline.go has no // want lines")
	}
	if t.Failed() {
		t.Logf("compiler output:\n%s", out)
	}
}

// TestAccessPathInlines checks that the functions hookAccess's first test
// is made of inline into it, so that an access the epoch cache answers
// makes no call: covered sits at the inliner's budget exactly, and a
// change that puts it over adds a call, and the spills around it, to the
// commonest access of every sampling period.
func TestAccessPathInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	out, err := exec.Command(goCommand(t), "build", "-gcflags=-m", "-o", os.DevNull, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// -m prints ": can inline NAME" at the end of a line for each
	// function within the budget.
	can := make(map[string]bool)
	for _, line := range strings.Split(string(out), "\n") {
		if _, fn, ok := strings.Cut(line, ": can inline "); ok {
			can[fn] = true
		}
	}
	for _, fn := range []string{"(*epochCache).covered", "(*thread).hotCache", "oneGranuleMask", "(*thread).epoch"} {
		if !can[fn] {
			t.Errorf("%s does not inline (go build -gcflags=-m=2 ./runtime says why)", fn)
		}
	}
}
