package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// racegenBin is racegen built once, for the tests in which the go command
// runs it (-toolexec, -vettool). TestMain removes it.
var racegenBin struct {
	once sync.Once
	path string
	err  error
}

// racegenBinary returns the path of racegen built from this package.
func racegenBinary(t *testing.T) string {
	t.Helper()
	path, err := builtRacegen()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// builtRacegen builds racegen once and returns its path. racegen run in
// the tests' own process names it as the go command's wrapper (see
// TestMain), since the test binary is not racegen.
func builtRacegen() (string, error) {
	racegenBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "racegen-bin")
		if err != nil {
			racegenBin.err = err
			return
		}
		racegenBin.path = filepath.Join(dir, "racegen")
		cmd := exec.Command("go", "build", "-o", racegenBin.path, ".")
		if msg, err := cmd.CombinedOutput(); err != nil {
			racegenBin.err = fmt.Errorf("go build racegen: %v\n%s", err, msg)
		}
	})
	return racegenBin.path, racegenBin.err
}

// demoModule returns a new module, example.com/demo, that knows nothing
// of racegen, holding the programs of testdata/toolexec.
func demoModule(t *testing.T) string {
	t.Helper()
	mod := t.TempDir()
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/demo\n\ngo 1.24\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"racy", "clean"} {
		src, err := os.ReadFile(filepath.Join(moduleRoot(t), "testdata", "toolexec", name, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(mod, name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name, "main.go"), src, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return mod
}

// goIn runs the go command in dir and returns its combined output.
func goIn(t *testing.T, dir string, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// runProgram runs bin and returns its standard error and exit status.
func runProgram(t *testing.T, bin string) (string, int) {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return stderr.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stderr.String(), 0
}

// TestToolexec builds testdata/toolexec's programs, in a module of their
// own, with go build -toolexec='racegen toolexec': the racy one must
// report its race at the lines marked // race and exit 66, the clean one
// must report nothing, the go build cache must keep instrumented and
// plain objects apart, and the module must be left as it was.
func TestToolexec(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	bin := racegenBinary(t)
	mod := demoModule(t)
	before := treeHash(t, mod)
	exe := t.TempDir()

	// A plain build first, whose cached objects must not be taken for
	// the instrumented ones.
	if msg, err := goIn(t, mod, "build", "-o", filepath.Join(exe, "plain1"), "./racy"); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	toolexec := fmt.Sprintf("-toolexec=%s -o %s toolexec", bin, testOut)
	if msg, err := goIn(t, mod, "build", toolexec, "-o", exe+string(filepath.Separator), "./racy", "./clean"); err != nil {
		t.Fatalf("go build %s: %v\n%s", toolexec, err, msg)
	}

	stderr, code := runProgram(t, filepath.Join(exe, "racy"))
	if code != 66 {
		t.Errorf("racy program exited %d, want 66; stderr:\n%s", code, stderr)
	}
	marks := markedLines(t, filepath.Join(mod, "racy"))
	reps := racePositions(stderr)
	if len(reps) == 0 || len(marks) != 2 {
		t.Fatalf("%d reports, %d marked lines; stderr:\n%s", len(reps), len(marks), stderr)
	}
	for _, r := range reps {
		if r[0] == r[1] || !slices.Contains(marks, r[0]) || !slices.Contains(marks, r[1]) {
			t.Errorf("report names %s and %s, want the two lines marked // race (%v); stderr:\n%s", r[0], r[1], marks, stderr)
		}
	}

	stderr, code = runProgram(t, filepath.Join(exe, "clean"))
	if code != 0 || strings.Contains(stderr, "DATA RACE") || strings.TrimSpace(stderr) != "hits 4 local 45" {
		t.Errorf("race-free program: exit %d, stderr:\n%s", code, stderr)
	}

	// And a plain build after: the cache must not hand it instrumented
	// objects either.
	if msg, err := goIn(t, mod, "build", "-o", filepath.Join(exe, "plain2"), "./racy"); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	for _, name := range []string{"plain1", "plain2"} {
		if stderr, code := runProgram(t, filepath.Join(exe, name)); code != 0 || strings.Contains(stderr, "DATA RACE") {
			t.Errorf("uninstrumented build %s: exit %d, stderr:\n%s", name, code, stderr)
		}
	}
	if after := treeHash(t, mod); after != before {
		t.Errorf("racegen toolexec changed the module's files")
	}
}
