package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVettool runs go vet -vettool=racegen on testdata/toolexec's
// programs: by default it must report nothing and succeed; with
// -racegenreport.local it must report the clean program's goroutine-local
// variables, and nothing that goroutines share, and fail as go vet does
// when there are diagnostics.
func TestVettool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds racegen")
	}
	bin := racegenBinary(t)
	mod := demoModule(t)

	if msg, err := goIn(t, mod, "vet", "-vettool="+bin, "./..."); err != nil || len(msg) != 0 {
		t.Errorf("go vet -vettool=racegen: %v, output %q; want success and no output", err, msg)
	}

	msg, err := goIn(t, mod, "vet", "-vettool="+bin, "-racegenreport.local", "./...")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("go vet -racegenreport.local: %v, want exit status 1; output:\n%s", err, msg)
	}
	src, err := os.ReadFile(filepath.Join(mod, "clean", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(string(src[:strings.Index(string(src), "local := 0")]), "\n")
	want := fmt.Sprintf("main.go:%d:2: racegen: local is goroutine-local", line)
	if !strings.Contains(string(msg), want) {
		t.Errorf("go vet -racegenreport.local output lacks %q:\n%s", want, msg)
	}
	for _, shared := range []string{"wg is", "hits is", "mu is", "racy"} {
		if strings.Contains(string(msg), shared) {
			t.Errorf("go vet -racegenreport.local reports %q, which goroutines share:\n%s", shared, msg)
		}
	}

	// The protocol's first steps: the tool lists its flags as JSON.
	out, err := exec.Command(bin, "-flags").Output()
	if err != nil || !strings.Contains(string(out), `"racegenreport.local"`) {
		t.Errorf("racegen -flags: %v, output %q; want the analysis flags", err, out)
	}
	out, err = exec.Command(bin, "-V=full").Output()
	if f := strings.Fields(string(out)); err != nil || len(f) < 3 || f[1] != "version" || !strings.HasPrefix(f[len(f)-1], "buildID=") {
		t.Errorf("racegen -V=full: %v, output %q; want NAME version ... buildID=...", err, out)
	}
}
