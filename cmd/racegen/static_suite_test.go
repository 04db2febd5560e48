package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// A staticSuiteConfig is one way of building the race suite in a static
// mode.
type staticSuiteConfig struct {
	mode, watchpoints, watch string
}

// collideSkip names the TestNoRace* tests a collide build with every site
// sampled cannot finish: each sampled access waits out its watchpoint,
// and TestNoRaceTinyAlloc makes 4 million of them (over an hour at 1 ms).
const collideSkip = "^TestNoRaceTinyAlloc$"

// staticSuiteConfigs returns the builds TestNoRaceSuiteStatic runs. By
// default: static mode on each engine, and collide mode on software
// watchpoints with a 1 ms limit, since every sampled access of a collide
// build waits out its watchpoint and the suite's loops would take minutes
// at the default 15 ms. With all (RACEGEN_SUITE=all, make eval-corpus),
// collide mode on hardware watchpoints too.
func staticSuiteConfigs(all bool) []staticSuiteConfig {
	cs := []staticSuiteConfig{
		{modeStatic, "hw", "15ms"},
		{modeStatic, "sw", "15ms"},
		// Every sampled access of a collide build waits out its
		// watchpoint: 1 ms keeps the programs' loops short.
		{modeCollide, "sw", "1ms"},
	}
	if all {
		cs = append(cs, staticSuiteConfig{modeCollide, "hw", "1ms"})
	}
	return cs
}

const (
	modeStatic  = "static"
	modeCollide = "collide"
)

// TestNoRaceSuiteStatic runs the TestNoRace* tests of Go's race suite
// built in racegen's static and collide modes with every site sampled
// (-rate=1), which arms the most watchpoints: none may report a race. A
// clock race is a happens-before race (CRSampler's Theorem 1) and a
// collision is a clock race (Theorem 2), so a report here is a bug in the
// runtime's synchronization or watchpoint handling. By default the
// subset's files run; with RACEGEN_SUITE=all (make eval-corpus) every
// file, in more configurations.
func TestNoRaceSuiteStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs Go's race suite")
	}
	all := os.Getenv("RACEGEN_SUITE") == "all"
	dir := suiteModule(t, suiteSrc(), suiteFiles(t, all))
	hw := hardwareWatchpoints()
	for _, c := range staticSuiteConfigs(all) {
		t.Run(c.mode+"/"+c.watchpoints+"/"+c.watch, func(t *testing.T) {
			if c.watchpoints == "hw" && !hw {
				t.Skip("no hardware watchpoints on this machine")
			}
			// Reports go to stdout, as in TestRaceSuite, so that each
			// lands under its test's heading.
			env := []string{"GOFLAGS=-count=1", "RACEGEN_OPTIONS=log_path=stdout"}
			// Every site of the suite's package is sampled; the rest of
			// the program (the standard library) keeps only its
			// synchronization hooks, or a collide build would wait out
			// a watchpoint at every access of package testing too.
			args := []string{"-mode=" + c.mode, "-rate=1", "-watchpoints=" + c.watchpoints, "-watch=" + c.watch,
				"-accesspkg=racesuite", "-o", testOut, "test", "-C", dir, "-v", "-run=^TestNoRace", "-timeout=10m"}
			skipped := "none"
			if c.mode == modeCollide {
				args = append(args, "-skip="+collideSkip)
				skipped = collideSkip
			}
			args = append(args, ".")
			var out bytes.Buffer
			code := runWithEnv(t, env, args, &out)
			if strings.Contains(out.String(), "panic: test timed out") {
				t.Fatalf("the suite timed out:\n%s", tail(out.String(), 6000))
			}
			got, _ := parseSuite(t, out.String(), dir)
			var ran int
			var falsePos []string
			for n, v := range got {
				if !strings.HasPrefix(n, "TestNoRace") || v.skipped {
					continue
				}
				ran++
				if v.race {
					falsePos = append(falsePos, n)
				}
			}
			sort.Strings(falsePos)
			if ran == 0 {
				t.Fatalf("no TestNoRace* test ran (exit %d):\n%s", code, tail(out.String(), 3000))
			}
			t.Logf("%s mode, %s watchpoints, limit %s: %d TestNoRace* tests ran (skipped: %s), %d reported a race", c.mode, c.watchpoints, c.watch, ran, skipped, len(falsePos))
			for _, n := range falsePos {
				t.Logf("output of %s:\n%s", n, got[n].output)
			}
			if len(falsePos) > 0 {
				t.Errorf("TestNoRace* reported a race (%d): %s", len(falsePos), strings.Join(falsePos, " "))
			}
			if code != 0 && len(falsePos) == 0 && !strings.Contains(out.String(), "DATA RACE") {
				t.Errorf("racegen test exited %d without a report:\n%s", code, tail(out.String(), 3000))
			}
		})
	}
}

// TestStaticRaceFreePrograms builds every race-free program of
// testdata/programs (those with no line marked // race) in the static and
// collide modes with every site sampled, on each watchpoint engine this
// machine has (in the configurations of staticSuiteConfigs), and runs
// each three times: no run may report a race, and each must exit 0 and
// print what the uninstrumented program prints. A program with a file
// static.skip, which says why, is left out; one with a file static.heavy
// (a build that takes a minute, say) runs in the first configuration
// the machine can run only, and in every one with RACEGEN_SUITE=all
// (make eval-corpus).
func TestStaticRaceFreePrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	root := moduleRoot(t)
	dirs, err := filepath.Glob(filepath.Join(root, "testdata", "programs", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no programs: %v", err)
	}
	hw := hardwareWatchpoints()
	out := testOut
	// The configurations of TestNoRaceSuiteStatic: collide builds on
	// hardware watchpoints only with RACEGEN_SUITE=all (make
	// eval-corpus). On a machine whose watchpoints fire, each
	// configuration here costs a minute of the package's time, against
	// make test's limit.
	all := os.Getenv("RACEGEN_SUITE") == "all"
	configs := staticSuiteConfigs(all)
	// A heavy program's one configuration in make test: the first this
	// machine can run.
	first := configs[:1]
	for i, c := range configs {
		if c.watchpoints != "hw" || hw {
			first = configs[i : i+1]
			break
		}
	}
	var n int
	for _, dir := range dirs {
		if len(markedLines(t, dir)) > 0 {
			continue
		}
		name := filepath.Base(dir)
		if why, err := os.ReadFile(filepath.Join(dir, "static.skip")); err == nil {
			t.Run(name, func(t *testing.T) { t.Skip(strings.TrimSpace(string(why))) })
			continue
		}
		cs := configs
		if _, err := os.Stat(filepath.Join(dir, "static.heavy")); err == nil && !all {
			cs = first
		}
		n++
		rel := "./testdata/programs/" + name
		plain := exec.Command("go", "run", rel)
		plain.Dir = root
		want, err := plain.Output()
		if err != nil {
			t.Fatalf("go run %s: %v", rel, err)
		}
		for _, c := range cs {
			t.Run(name+"/"+c.mode+"/"+c.watchpoints, func(t *testing.T) {
				if c.watchpoints == "hw" && !hw {
					t.Skip("no hardware watchpoints on this machine")
				}
				t.Parallel()
				bin := filepath.Join(t.TempDir(), name)
				// Every site of the programs is sampled, none of the
				// standard library's. One pattern for all programs
				// keeps one configuration, whose standard library the
				// go build cache holds after the first build.
				args := []string{"-mode=" + c.mode, "-rate=1", "-watchpoints=" + c.watchpoints, "-watch=" + c.watch,
					"-accesspkg=./testdata/programs/...", "-o", out, "build", "-C", root, "-o", bin, rel}
				var msg bytes.Buffer
				if code := run(args, &msg, &msg); code != 0 {
					t.Fatalf("racegen %s: exit %d\n%s", strings.Join(args, " "), code, msg.String())
				}
				for i := range 3 {
					var stdout, stderr bytes.Buffer
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					prog := exec.CommandContext(ctx, bin)
					prog.Stdout, prog.Stderr = &stdout, &stderr
					prog.WaitDelay = time.Second
					err := prog.Run()
					timedOut := ctx.Err() != nil
					cancel()
					switch {
					case timedOut:
						t.Fatalf("run %d: killed after %v; stderr:\n%s", i, time.Minute, stderr.String())
					case strings.Contains(stderr.String(), "DATA RACE"):
						t.Fatalf("run %d: race-free program reported a race:\n%s", i, stderr.String())
					case err != nil:
						t.Fatalf("run %d: %v; stderr:\n%s", i, err, stderr.String())
					case stdout.String() != string(want):
						t.Errorf("run %d: instrumented output %q, uninstrumented %q", i, stdout.String(), want)
					}
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no race-free program in testdata/programs")
	}
}
