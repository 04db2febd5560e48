package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// moduleRoot returns the root of racegen's module.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// tempModule writes files (name to contents) into a new temporary
// directory and returns it.
func tempModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// frameRE matches a frame's position line in a report: "      /a/b.go:12 +0x3c".
var frameRE = regexp.MustCompile(`^\s+(\S+\.go):(\d+)`)

// racePositions returns, for each report in out, the positions of the
// first frame of the current and the previous access, as "base.go:line".
func racePositions(out string) [][2]string {
	var reps [][2]string
	lines := strings.Split(out, "\n")
	firstFrame := func(i int) string {
		for j := i + 1; j < len(lines) && j < i+4; j++ {
			if m := frameRE.FindStringSubmatch(lines[j]); m != nil {
				return filepath.Base(m[1]) + ":" + m[2]
			}
		}
		return "?"
	}
	for i, l := range lines {
		if l != "WARNING: DATA RACE" || i+1 >= len(lines) {
			continue
		}
		var r [2]string
		r[0] = firstFrame(i + 1)
		for j := i + 2; j < len(lines) && lines[j] != "=================="; j++ {
			if strings.HasPrefix(lines[j], "Previous ") {
				r[1] = firstFrame(j)
				break
			}
		}
		reps = append(reps, r)
	}
	return reps
}

// markedLines returns the "file:line" of every line ending in "// race".
func markedLines(t *testing.T, dir string) []string {
	t.Helper()
	var marks []string
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if strings.HasSuffix(strings.TrimSpace(l), "// race") {
				marks = append(marks, fmt.Sprintf("%s:%d", filepath.Base(f), i+1))
			}
		}
	}
	return marks
}

// TestPrograms runs each program under testdata/programs instrumented and
// checks its verdict, the positions of its reports, its exit status and
// that it prints what the uninstrumented program prints.
func TestPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	root := moduleRoot(t)
	dirs, err := filepath.Glob(filepath.Join(root, "testdata", "programs", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no programs: %v", err)
	}
	out := testOut
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			marks := markedLines(t, dir)
			rel := "./testdata/programs/" + name
			bin := filepath.Join(t.TempDir(), name)
			var msg bytes.Buffer
			if code := run([]string{"-o", out, "build", "-C", root, "-o", bin, rel}, &msg, &msg); code != 0 {
				t.Fatalf("racegen build: exit %d\n%s", code, msg.String())
			}
			stdout, stderr, code := runBinary(t, bin)

			plain := exec.Command("go", "run", rel)
			plain.Dir = root
			want, err := plain.Output()
			if err != nil {
				t.Fatalf("go run %s: %v", rel, err)
			}
			if stdout.String() != string(want) {
				t.Errorf("instrumented output %q, uninstrumented %q", stdout.String(), want)
			}

			reps := racePositions(stderr.String())
			checkFresa(t, bin, marks)
			if len(marks) == 0 {
				if code != 0 || len(reps) > 0 {
					t.Fatalf("race-free program: exit %d, reports:\n%s", code, stderr.String())
				}
				return
			}
			if code != 66 {
				t.Errorf("racy program exited %d, want 66; stderr:\n%s", code, stderr.String())
			}
			if len(reps) == 0 {
				t.Fatalf("no race reported; stderr:\n%s", stderr.String())
			}
			for _, r := range reps {
				got := []string{r[0], r[1]}
				slices.Sort(got)
				for _, p := range got {
					if !slices.Contains(marks, p) {
						t.Errorf("report names %s, not a line marked // race (%v); stderr:\n%s", p, marks, stderr.String())
					}
				}
			}
		})
	}
}

// runBinary runs bin with env added to the environment and returns its
// output and exit status.
func runBinary(t *testing.T, bin string, env ...string) (stdout, stderr bytes.Buffer, code int) {
	t.Helper()
	prog := exec.Command(bin)
	prog.Env = append(os.Environ(), env...)
	prog.Stdout, prog.Stderr = &stdout, &stderr
	if err := prog.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return stdout, stderr, code
}

// checkFresa runs bin, built at rate 1, with FRESA on: skipping accesses
// may lose races but never invents one, so every report names marked
// lines, and the program exits 66 exactly when it reported.
func checkFresa(t *testing.T, bin string, marks []string) {
	t.Helper()
	_, stderr, code := runBinary(t, bin, "RACEGEN_OPTIONS=fresa=1")
	reps := racePositions(stderr.String())
	if (code == 66) != (len(reps) > 0) {
		t.Errorf("with fresa=1: exit %d after %d reports:\n%s", code, len(reps), stderr.String())
	}
	for _, r := range reps {
		for _, p := range r {
			if !slices.Contains(marks, p) {
				t.Errorf("with fresa=1: report names %s, not a line marked // race (%v):\n%s", p, marks, stderr.String())
			}
		}
	}
}

// TestForeignModule runs racegen on a module that knows nothing of it:
// the flags form and the run form must both work, the module's files must
// be left exactly as they were, and a second build must take everything
// from the go build cache.
func TestForeignModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	mod := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/demo\n\ngo 1.24\n")
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "testdata", "programs", "counter_racy", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	write("main.go", string(b))
	before := treeHash(t, mod)
	out := testOut

	var stdout, stderr bytes.Buffer
	// go run, with or without -race, exits 1 when the program fails and
	// says how the program exited.
	if code := run([]string{"-o", out, "run", "-C", mod, "."}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "exit status 66") {
		t.Fatalf("racegen run: exit %d, want 1 after the program's exit status 66; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "WARNING: DATA RACE") {
		t.Fatalf("no report:\n%s", stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	wd, _ := os.Getwd()
	if err := os.Chdir(mod); err != nil {
		t.Fatal(err)
	}
	code := run([]string{"-o", out, "."}, &stdout, &stderr)
	os.Chdir(wd)
	if code != 0 {
		t.Fatalf("racegen .: exit %d; stderr:\n%s", code, stderr.String())
	}
	flags := strings.Fields(stdout.String())
	if len(flags) != 2 || !strings.HasPrefix(flags[0], "-toolexec=") || flags[1] != "-pgo=off" {
		t.Fatalf("printed flags %q, want -toolexec=... -pgo=off", stdout.String())
	}
	bin := filepath.Join(t.TempDir(), "demo")
	if code := run([]string{"-o", out, "build", "-C", mod, "-o", bin, "."}, &stdout, &stderr); code != 0 {
		t.Fatalf("racegen build: exit %d; stderr:\n%s", code, stderr.String())
	}
	// racegen build built the same packages with the same wrapper: the go
	// build cache has them all, and go build -v names none as built (it
	// replays the compiles' cached messages, racegen's -v lines among
	// them).
	build := exec.Command("go", append(append([]string{"build", "-v"}, flags...), "-o", bin, ".")...)
	build.Dir = mod
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build with racegen's flags: %v\n%s", err, msg)
	} else if slices.Contains(strings.Split(string(msg), "\n"), "example.com/demo") {
		t.Errorf("go build with racegen's flags compiled again after racegen build:\n%s", msg)
	}
	prog := exec.Command(bin)
	msg, err := prog.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 66 || !strings.Contains(string(msg), "WARNING: DATA RACE") {
		t.Errorf("instrumented binary: %v\n%s", err, msg)
	}
	if after := treeHash(t, mod); after != before {
		t.Errorf("racegen changed the module's files")
	}
}

// treeHash hashes the names and contents of every file under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestOldGoLine builds, in every form, modules whose go line predates
// generics (go 1.12, as gorilla/websocket's) and per-iteration loop
// variables (go 1.16, 1.21): racegen must build them without touching
// their go.mod, keep their language semantics, and so report the race
// of a goroutine capturing a range variable that the next iteration
// writes, as go build -race does.
func TestOldGoLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	src, err := os.ReadFile(filepath.Join(moduleRoot(t), "testdata", "programs", "loopvar_racy", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	// Without its build constraint the file has the module's version.
	prog := strings.Replace(string(src), "//go:build go1.21\n", "", 1)
	marks := []string{}
	for i, l := range strings.Split(prog, "\n") {
		if strings.HasSuffix(l, "// race") {
			marks = append(marks, fmt.Sprintf("main.go:%d", i+1))
		}
	}
	out := testOut
	for _, goLine := range []string{"1.12", "1.16", "1.21"} {
		t.Run(goLine, func(t *testing.T) {
			mod := t.TempDir()
			gomod := "module example.com/old\n\ngo " + goLine + "\n"
			for name, data := range map[string]string{"go.mod": gomod, "main.go": prog} {
				if err := os.WriteFile(filepath.Join(mod, name), []byte(data), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			before := treeHash(t, mod)
			var stdout, stderr bytes.Buffer
			if code := run([]string{"-o", out, "run", "-C", mod, "."}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "exit status 66") {
				t.Fatalf("racegen run: exit %d, want 1 after exit status 66; stderr:\n%s", code, stderr.String())
			}
			for _, r := range racePositions(stderr.String()) {
				for _, p := range r {
					if !slices.Contains(marks, p) {
						t.Errorf("report names %s, want the lines marked // race (%v); stderr:\n%s", p, marks, stderr.String())
					}
				}
			}
			// The -toolexec form, straight from the go command.
			bin := filepath.Join(t.TempDir(), "old")
			build := exec.Command("go", "build", "-toolexec="+racegenBinary(t)+" -o="+out+" toolexec", "-o", bin, ".")
			build.Dir = mod
			if msg, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build -toolexec: %v\n%s", err, msg)
			}
			msg, err := exec.Command(bin).CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 66 {
				t.Errorf("-toolexec build: %v, want exit 66; output:\n%s", err, msg)
			}
			if treeHash(t, mod) != before {
				t.Errorf("racegen changed the module's files")
			}
		})
	}
}
