package main

import (
	"bytes"
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
