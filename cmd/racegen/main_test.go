package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runWithEnv runs racegen in this process with extra environment, which
// the go commands it starts inherit, and returns its exit status.
func runWithEnv(t *testing.T, env []string, args []string, out io.Writer) int {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return run(args, out, out)
}

func TestSplitGoArgs(t *testing.T) {
	tests := []struct {
		sub  string
		args []string
		want goArgs
		err  string
	}{
		{"build", nil, goArgs{patterns: []string{"."}}, ""},
		{"build", []string{"-o", "x", "./cmd/app"}, goArgs{flags: []string{"-o=x"}, patterns: []string{"./cmd/app"}}, ""},
		{"test", []string{"-v", "-run", "TestX", "./...", "-count=1"}, goArgs{flags: []string{"-v", "-run=TestX", "-count=1"}, patterns: []string{"./..."}}, ""},
		{"test", []string{"./p", "-args", "-foo"}, goArgs{patterns: []string{"./p"}, rest: []string{"-args", "-foo"}}, ""},
		{"run", []string{"./cmd/app", "arg1", "-flag"}, goArgs{patterns: []string{"./cmd/app"}, rest: []string{"arg1", "-flag"}}, ""},
		{"run", []string{"a.go", "b.go", "x"}, goArgs{patterns: []string{"a.go", "b.go"}, rest: []string{"x"}}, ""},
		{"build", []string{"-tags", "foo,bar", "."}, goArgs{flags: []string{"-tags=foo,bar"}, patterns: []string{"."}, tags: "foo,bar"}, ""},
		{"build", []string{"-C", "dir", "."}, goArgs{patterns: []string{"."}, dir: "dir"}, ""},
		{"test", []string{"-test.cpuprofile", "cpu.out", "."}, goArgs{flags: []string{"-test.cpuprofile=cpu.out"}, patterns: []string{"."}}, ""},
		{"build", []string{"-overlay=x.json", "-modfile", "alt.mod"}, goArgs{flags: []string{"-overlay=x.json", "-modfile=alt.mod"}, patterns: []string{"."}}, ""},
		{"build", []string{"-race"}, goArgs{}, "-race builds Go's own"},
		{"build", []string{"-o"}, goArgs{}, "needs a value"},
	}
	for _, tt := range tests {
		got, err := splitGoArgs(tt.sub, tt.args)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("splitGoArgs(%q, %q) error = %v, want %q", tt.sub, tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("splitGoArgs(%q, %q): %v", tt.sub, tt.args, err)
			continue
		}
		if !equalArgs(got, tt.want) {
			t.Errorf("splitGoArgs(%q, %q) = %+v, want %+v", tt.sub, tt.args, got, tt.want)
		}
	}
}

func equalArgs(a, b goArgs) bool {
	eq := func(x, y []string) bool { return strings.Join(x, "\x00") == strings.Join(y, "\x00") }
	return eq(a.flags, b.flags) && eq(a.patterns, b.patterns) && eq(a.rest, b.rest) && a.tags == b.tags && a.dir == b.dir
}

func TestBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-rate=2", "."}, "want a number from 0 to 1"},
		{[]string{"-rate=-0.5", "."}, "want a number from 0 to 1"},
		{[]string{"-mode=fast", "."}, "want dynamic, static or collide"},
		{[]string{"-nosuch", "."}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if code := run(tt.args, &out, &out); code != 2 {
			t.Errorf("racegen %q: exit %d, want 2", tt.args, code)
		}
		if !strings.Contains(out.String(), tt.want) {
			t.Errorf("racegen %q: output %q does not contain %q", tt.args, out.String(), tt.want)
		}
	}
}

func TestRefusedEnvironments(t *testing.T) {
	tests := []struct {
		env  []string
		want string
	}{
		{[]string{"GOEXPERIMENT=runtimefreegc"}, "runtimefreegc"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			var out bytes.Buffer
			if code := runWithEnv(t, tt.env, []string{"-o", testOut, "."}, &out); code != 2 || !strings.Contains(out.String(), tt.want) {
				t.Errorf("racegen with %v: exit %d, output %q; want exit 2 and %q", tt.env, code, out.String(), tt.want)
			}
		})
	}
}

// testOut is the -o of every racegen the tests run: racegen's identity
// in the go build cache names it (the runtime's source is built there),
// so tests that share a configuration share its instrumented standard
// library, which is then compiled once.
var testOut string

func TestMain(m *testing.M) {
	// The go commands racegen starts must not see the test binary's
	// coverage or race settings.
	os.Unsetenv("GOFLAGS")
	executable = builtRacegen
	var err error
	if testOut, err = os.MkdirTemp("", "racegen-out"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(testOut)
	if racegenBin.path != "" {
		os.RemoveAll(filepath.Dir(racegenBin.path))
	}
	os.Exit(code)
}

func TestResolvePatterns(t *testing.T) {
	root := moduleRoot(t)
	got, err := resolvePatterns(root, []string{"./testdata/programs/...", "./cmd/racegen", "std", "example.com/x/..."})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"github.com/racegen/racegen/testdata/programs/...", "github.com/racegen/racegen/cmd/racegen", "std", "example.com/x/..."}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("resolvePatterns = %q, want %q", got, want)
	}
	if _, err := resolvePatterns(root, []string{""}); err == nil {
		t.Errorf("resolvePatterns of nothing: no error")
	}
}
