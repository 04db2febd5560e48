package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestStaticClockRaceRate is the per-race guarantee of static mode: a
// clock race whose second access comes within the time limit is found by
// every build that sampled a site of its first access, and a site is
// sampled by a share r of the builds (TestSiteChoiceAcrossSeeds in
// package instrument), so the race is found by at least a share r of the
// builds at rate r. It builds clockRacy at rate r with seeds 1..builds,
// reads from -v which builds sampled the first access's line, and runs
// each of those once: each must report the race.
func TestStaticClockRaceRate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	const (
		rate   = 0.5
		builds = 6 // each rebuilds the standard library: 8-9 s
	)
	mod := t.TempDir()
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/clock\n\ngo 1.24\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "main.go"), []byte(clockRacy), 0o666); err != nil {
		t.Fatal(err)
	}
	// The goroutine's access comes first in the source, as in time.
	first := markedLines(t, mod)[0] // main.go:LINE
	wp := "sw"
	if hardwareWatchpoints() {
		wp = "hw"
	}
	sampledRE := regexp.MustCompile(`(?m)^racegen: sampled .*main\.go:(\d+):\d+$`)
	sampledBuilds := 0
	for seed := 1; seed <= builds; seed++ {
		bin := filepath.Join(t.TempDir(), "clock")
		var msg bytes.Buffer
		args := []string{"-mode=static", fmt.Sprintf("-rate=%v", rate), fmt.Sprintf("-seed=%d", seed),
			"-watchpoints=" + wp, "-watch=1s", "-accesspkg=example.com/clock", "-o", testOut, "-v",
			"build", "-C", mod, "-o", bin, "."}
		if code := run(args, &msg, &msg); code != 0 {
			t.Fatalf("racegen %s: exit %d\n%s", strings.Join(args, " "), code, msg.String())
		}
		sampled := false
		for _, m := range sampledRE.FindAllStringSubmatch(msg.String(), -1) {
			if "main.go:"+m[1] == first {
				sampled = true
			}
		}
		if !sampled {
			continue
		}
		sampledBuilds++
		_, stderr, code := runBinary(t, bin)
		if code != 66 || !strings.Contains(stderr.String(), "WARNING: DATA RACE") {
			t.Errorf("seed %d sampled %s, the race's first access, but the run reported no race (exit %d); stderr:\n%s", seed, first, code, stderr.String())
		}
	}
	t.Logf("%d of %d builds at rate %v sampled the first access's line", sampledBuilds, builds, rate)
	if sampledBuilds == 0 {
		t.Fatalf("no build of %d at rate %v sampled %s: the test checked nothing", builds, rate, first)
	}
}
