package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// fakeProgram writes a shell script that plays an evaluation program:
// its first fails runs print stderr and exit with status 2, the later
// ones exit 0 without a report. It counts its runs in the file count,
// next to it. It returns the script.
func fakeProgram(t *testing.T, fails int, stderr string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX shell")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "prog")
	body := `#!/bin/sh
n=$(cat count 2>/dev/null || echo 0)
echo $((n + 1)) > count
if [ "$n" -lt ` + strconv.Itoa(fails) + ` ]; then
	printf '%s\n' '` + stderr + `' >&2
	exit 2
fi
exit 0
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// TestTrialRerunsMapCrash checks that a run ended by Go's concurrent map
// check is made again, up to mapRetries times, and that any other failure
// is reported at once.
func TestTrialRerunsMapCrash(t *testing.T) {
	tests := []struct {
		name    string
		fails   int
		stderr  string
		wantErr bool
		runs    int
	}{
		{"map crash once", 1, "fatal error: concurrent map read and map write", false, 2},
		{"map crash every time", mapRetries + 1, "fatal error: concurrent map writes", true, mapRetries + 1},
		{"other crash", 1, "panic: boom", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := fakeProgram(t, tt.fails, tt.stderr)
			dir := filepath.Dir(bin)
			tr := &trialRunner{dir: dir, file: "main.go"}
			_, err := tr.trial(bin, "format=json")
			if (err != nil) != tt.wantErr {
				t.Errorf("trial error = %v, want error %v", err, tt.wantErr)
			}
			b, rerr := os.ReadFile(filepath.Join(dir, "count"))
			if rerr != nil {
				t.Fatal(rerr)
			}
			if got := strings.TrimSpace(string(b)); got != strconv.Itoa(tt.runs) {
				t.Errorf("program ran %s times, want %d", got, tt.runs)
			}
		})
	}
}
