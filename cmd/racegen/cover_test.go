package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCover runs racegen test with coverage on testdata/cover: the go
// command compiles the cover tool's copies of the packages' files, so
// racegen must instrument those copies and not cover's counters. The
// racy package's races (one of which only the counters of
// -covermode=atomic, taken for synchronization, would hide) must be
// reported at the lines marked // race and fail the test; the clean one
// must pass, with no race (the coverage counters are no races) and the
// coverage profile plain go test gives.
func TestCover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	bin := racegenBinary(t)
	root := moduleRoot(t)
	out := testOut
	racegen := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"-o", out}, args...)...)
		cmd.Dir = root
		msg, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(msg), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(msg), 0
	}

	t.Run("racy", func(t *testing.T) {
		dir := filepath.Join(root, "testdata", "cover", "racy")
		marks := markedLines(t, dir)
		for _, mode := range []string{"set", "atomic"} {
			msg, code := racegen("test", "-count=1", "-covermode="+mode, "./testdata/cover/racy")
			if code == 0 || !strings.Contains(msg, "coverage: 100.0% of statements") {
				t.Errorf("-covermode=%s: exit %d, want a failure with coverage; output:\n%s", mode, code, msg)
			}
			for _, test := range []string{"TestBump", "TestSetThenMark"} {
				if !strings.Contains(msg, "--- FAIL: "+test) {
					t.Errorf("-covermode=%s: %s did not fail; output:\n%s", mode, test, msg)
				}
			}
			// The earlier access's frame comes from the site's name in
			// the instrumented package, which go test compiles as its
			// test variant ("p [p.test]"); a traceback, and -race, name
			// it p.Bump.
			if strings.Contains(msg, ".test].") || !strings.Contains(msg, "racy.Bump()") {
				t.Errorf("-covermode=%s: frames not named as a traceback names them (racy.Bump, no test variant); output:\n%s", mode, msg)
			}
			reps := racePositions(msg)
			if len(reps) != 2 {
				t.Errorf("-covermode=%s: %d reports, want 2; output:\n%s", mode, len(reps), msg)
			}
			for _, r := range reps {
				if !slices.Contains(marks, r[0]) || !slices.Contains(marks, r[1]) {
					t.Errorf("-covermode=%s: report names %s and %s, want lines marked // race (%v)", mode, r[0], r[1], marks)
				}
			}
		}
	})

	t.Run("clean", func(t *testing.T) {
		prof := filepath.Join(t.TempDir(), "racegen.out")
		msg, code := racegen("test", "-count=1", "-coverprofile="+prof, "./testdata/cover/clean")
		if code != 0 || strings.Contains(msg, "DATA RACE") || !strings.Contains(msg, "coverage: 66.7% of statements") {
			t.Fatalf("exit %d, want 0 with coverage and no race; output:\n%s", code, msg)
		}
		plainProf := filepath.Join(t.TempDir(), "plain.out")
		if msg, err := goIn(t, root, "test", "-count=1", "-coverprofile="+plainProf, "./testdata/cover/clean"); err != nil {
			t.Fatalf("go test: %v\n%s", err, msg)
		}
		got, err1 := os.ReadFile(prof)
		want, err2 := os.ReadFile(plainProf)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("coverage profile:\n%s\nplain go test's:\n%s", got, want)
		}
	})

	t.Run("build", func(t *testing.T) {
		exe := filepath.Join(t.TempDir(), "qs")
		if msg, code := racegen("build", "-cover", "-o", exe, "./testdata/quickstart"); code != 0 {
			t.Fatalf("racegen build -cover: exit %d\n%s", code, msg)
		}
		covdir := t.TempDir()
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "GOCOVERDIR="+covdir)
		msg, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 66 || !strings.Contains(string(msg), "WARNING: DATA RACE") {
			t.Errorf("program built with -cover: %v, want exit 66 and a report; output:\n%s", err, msg)
		}
		if meta, _ := filepath.Glob(filepath.Join(covdir, "covmeta.*")); len(meta) == 0 {
			t.Errorf("program built with -cover wrote no coverage data to GOCOVERDIR")
		}
	})

	t.Run("refused", func(t *testing.T) {
		for _, args := range [][]string{
			{"test", "-cover", "-toolexec=echo", "./testdata/cover/clean"},
			{"-toolexec=echo", "./testdata/cover/clean"}, // the flags form
		} {
			if msg, code := racegen(args...); code != 2 || !strings.Contains(msg, "-toolexec") {
				t.Errorf("racegen %q: exit %d, want 2 and a word on -toolexec; output:\n%s", args, code, msg)
			}
		}
	})
}

func TestQuoteField(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"/usr/bin/racegen", "/usr/bin/racegen"},
		{"/home/a b/racegen", "'/home/a b/racegen'"},
		{"/x/it's here", `"/x/it's here"`},
		{"", "''"},
	} {
		if got, err := quoteField(tt.in); err != nil || got != tt.want {
			t.Errorf("quoteField(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if got, _ := quoteField(tt.in); tt.in != "" && !slices.Equal(splitQuoted(got), []string{tt.in}) {
			t.Errorf("splitQuoted(quoteField(%q)) = %q", tt.in, splitQuoted(got))
		}
	}
	if _, err := quoteField(`a'b"c d`); err == nil {
		t.Errorf("quoteField of a field with both quotes and a space: no error")
	}
}
