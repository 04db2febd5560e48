package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandLine checks what racegen says when asked about itself or
// given nothing to do (issue 18, item 9): usage on no arguments, the
// flags on help, and a version.
func TestCommandLine(t *testing.T) {
	tests := []struct {
		args       []string
		code       int
		stdout     string // a substring of standard output
		stderr     string // a substring of standard error
		noStdout   bool   // standard output must be empty
		helpOutput bool   // the flags are listed
	}{
		{args: nil, code: 2, stderr: "usage: racegen", noStdout: true},
		{args: []string{"help"}, code: 0, stdout: "usage: racegen", helpOutput: true},
		{args: []string{"-h"}, code: 0, stderr: "usage: racegen"},
		{args: []string{"version"}, code: 0, stdout: "racegen "},
		{args: []string{"-version"}, code: 0, stdout: "racegen "},
		{args: []string{"-rate=0.5", "-version"}, code: 0, stdout: "racegen "},
		{args: []string{"-fresa", "-mode=static", "build", "."}, code: 2, stderr: "-fresa: frequency-sensitive sampling is for -mode=dynamic"},
		{args: []string{"-profile=testdata/merge/no-such.prof", "build", "."}, code: 2, stderr: "-profile: open"},
		{args: []string{"-profile=testdata/merge/fleet/app.101", "build", "."}, code: 2, stderr: "not a racegen profile"},
		{args: []string{"-profile=testdata/merge/profiles/old.203", "build", "."}, code: 2, stderr: "a profile of an earlier racegen"},
		{args: []string{"merge", "-profiles", "testdata/merge/fleet"}, code: 1, stderr: "no profile read"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code {
			t.Errorf("racegen %q: exit %d, want %d; stderr:\n%s", tt.args, code, tt.code, stderr.String())
		}
		if !strings.Contains(stdout.String(), tt.stdout) {
			t.Errorf("racegen %q: stdout %q does not contain %q", tt.args, stdout.String(), tt.stdout)
		}
		if !strings.Contains(stderr.String(), tt.stderr) {
			t.Errorf("racegen %q: stderr %q does not contain %q", tt.args, stderr.String(), tt.stderr)
		}
		if tt.noStdout && stdout.Len() > 0 {
			t.Errorf("racegen %q: stdout %q, want nothing", tt.args, stdout.String())
		}
		if tt.helpOutput && !strings.Contains(stdout.String(), "-rate") {
			t.Errorf("racegen %q: stdout does not list the flags:\n%s", tt.args, stdout.String())
		}
	}
}

// TestSourceArguments checks the build and run forms on what the go
// command accepts besides packages (issue 18, item 9): file arguments,
// as go run -race main.go takes them, and a file with a syntax error,
// which must be reported once, by the compiler, as go build reports it.
func TestSourceArguments(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.com/files\n\ngo 1.21\n",
		"main.go":      "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(greeting) }\n",
		"greeting.go":  "package main\n\nconst greeting = \"hello from two files\"\n",
		"bad/main.go":  "package main\n\nfunc main() {\n\tx :=\n}\n",
		"bad/other.go": "package main\n\nfunc other() {}\n",
	}
	for name, data := range files {
		path := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	before := treeHash(t, mod)

	t.Run("files", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"-o", testOut, "run", "-C", mod, "main.go", "greeting.go"}, &stdout, &stderr)
		if code != 0 || !strings.Contains(stdout.String(), "hello from two files") {
			t.Errorf("racegen run main.go greeting.go: exit %d, stdout %q; stderr:\n%s", code, stdout.String(), stderr.String())
		}
	})
	t.Run("syntax error", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"-o", testOut, "build", "-C", mod, "-o", filepath.Join(t.TempDir(), "bad"), "./bad"}, &stdout, &stderr)
		if code == 0 {
			t.Fatalf("racegen build ./bad: exit 0, want a failure")
		}
		if n := strings.Count(stderr.String(), "syntax error"); n != 1 {
			t.Errorf("racegen build ./bad: %d syntax errors reported, want 1; stderr:\n%s", n, stderr.String())
		}
		if !strings.Contains(stderr.String(), "main.go:5:1: syntax error") {
			t.Errorf("racegen build ./bad: stderr does not give the error's position main.go:5:1:\n%s", stderr.String())
		}
		if strings.Contains(stderr.String(), "racegen:") {
			t.Errorf("racegen build ./bad: racegen added messages of its own to the compiler's:\n%s", stderr.String())
		}
	})
	if after := treeHash(t, mod); after != before {
		t.Errorf("racegen wrote into the module")
	}
}
