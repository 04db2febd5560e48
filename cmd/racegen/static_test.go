package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// clockRacy is a race that static mode can see: the first goroutine does
// not synchronize between its access and the second goroutine's, so its
// clock is unchanged when the second access happens (a clock race).
// counter_racy, whose goroutine sends right after its access, is not one
// as the runtime models it: the send ticks the goroutine's clock before
// it blocks, so only collide mode, which holds the goroutine at its
// access, reports it.
const clockRacy = `package main

import (
	"fmt"
	"time"
)

var hits int

func main() {
	done := make(chan bool)
	go func() {
		hits++                            // race
		time.Sleep(10 * time.Millisecond) // no synchronization: the clock stays
		done <- true
	}()
	time.Sleep(5 * time.Millisecond)
	hits++ // race
	<-done
	fmt.Println("done")
}
`

// TestStaticModes builds programs with -mode=static and -mode=collide at
// rate 1, with software watchpoints and, where this machine has them,
// hardware ones, and runs each a few times: a racy program must report
// its race (exit 66) at least once, a race-free one never.
func TestStaticModes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	root := moduleRoot(t)
	mod := t.TempDir()
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/clock\n\ngo 1.24\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "main.go"), []byte(clockRacy), 0o666); err != nil {
		t.Fatal(err)
	}
	type program struct {
		name, dir, pkg string
		access         string // -accesspkg
		racy           bool
	}
	mutex := program{"counter_mutex", root, "./testdata/programs/counter_mutex", "./testdata/programs/...", false}
	clock := program{"clock_racy", mod, ".", "example.com/clock", true}
	counter := program{"counter_racy", root, "./testdata/programs/counter_racy", "./testdata/programs/...", true}
	modes := map[string][]program{
		"static":  {mutex, clock},
		"collide": {mutex, clock, counter},
	}
	hw := hardwareWatchpoints()
	out := testOut
	for _, mode := range []string{"static", "collide"} {
		for _, wp := range []string{"sw", "hw"} {
			for _, p := range modes[mode] {
				t.Run(mode+"/"+wp+"/"+p.name, func(t *testing.T) {
					if wp == "hw" && !hw {
						t.Skip("no hardware watchpoints on this machine")
					}
					t.Parallel()
					bin := filepath.Join(t.TempDir(), p.name)
					var msg bytes.Buffer
					// Every site of the program's package is sampled,
					// none of the standard library's.
					args := []string{"-mode=" + mode, "-rate=1", "-watchpoints=" + wp, "-accesspkg=" + p.access, "-o", out, "-v"}
					if mode == "collide" && !p.racy {
						// Each of counter_mutex's 800 increments
						// waits out its watchpoint, under the lock:
						// 12 s at the default 15 ms.
						args = append(args, "-watch=1ms")
					}
					args = append(args, "build", "-C", p.dir, "-o", bin, p.pkg)
					if code := run(args, &msg, &msg); code != 0 {
						t.Fatalf("racegen %s: exit %d\n%s", strings.Join(args, " "), code, msg.String())
					}
					if !strings.Contains(msg.String(), "racegen: sampled ") {
						t.Errorf("-v lists no sampled sites:\n%s", msg.String())
					}
					reported := 0
					for i := 0; i < 3; i++ {
						var stdout, stderr bytes.Buffer
						// A hung program must fail this test, not time
						// out the whole package.
						ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
						prog := exec.CommandContext(ctx, bin)
						prog.Stdout, prog.Stderr = &stdout, &stderr
						prog.WaitDelay = time.Second
						err := prog.Run()
						timedOut := ctx.Err() != nil
						cancel()
						if timedOut {
							t.Fatalf("run %d: killed after %v; stderr:\n%s", i, time.Minute, stderr.String())
						}
						code := 0
						if err != nil {
							ee, ok := err.(*exec.ExitError)
							if !ok {
								t.Fatal(err)
							}
							code = ee.ExitCode()
						}
						raced := strings.Contains(stderr.String(), "WARNING: DATA RACE")
						switch {
						case !p.racy && (raced || code != 0):
							t.Fatalf("race-free program: exit %d, stderr:\n%s", code, stderr.String())
						case p.racy && raced:
							if code != 66 {
								t.Errorf("racy program reported a race but exited %d, want 66", code)
							}
							reported++
						case p.racy && code != 0:
							t.Fatalf("racy program exited %d without a report; stderr:\n%s", code, stderr.String())
						}
						if reported > 0 {
							break // a racy program needs one report
						}
					}
					if p.racy && reported == 0 {
						t.Errorf("no race reported in 3 runs")
					}
				})
			}
		}
	}
}

// raceMarkRE matches a line that takes part in a race of an evaluation
// program.
var raceMarkRE = regexp.MustCompile(`//\s*race:\s*[A-Za-z0-9_-]+\s*$`)

// TestStaticProfile builds testdata/evalrace/cold in static mode at a low
// rate with a profile that says its hot loop's sites run a billion times:
// the budget those sites would take goes to the cold ones, so no site of
// the hot loop is sampled and every line of every race is.
func TestStaticProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	root := moduleRoot(t)
	const prog = "./testdata/evalrace/cold"
	sampled := func(args ...string) []string {
		t.Helper()
		var out bytes.Buffer
		args = append(args, "-mode=static", "-v", "-o", testOut, "build", "-C", root, "-o", filepath.Join(t.TempDir(), "cold"), prog)
		if code := run(args, &out, &out); code != 0 {
			t.Fatalf("racegen %v: exit %d\n%s", args, code, out.String())
		}
		var sites []string
		for l := range strings.Lines(out.String()) {
			if s, ok := strings.CutPrefix(strings.TrimSpace(l), "racegen: sampled "); ok && strings.Contains(s, "evalrace/cold/main.go:") {
				sites = append(sites, s[strings.LastIndex(s, "main.go:"):])
			}
		}
		return sites
	}
	src, err := os.ReadFile(filepath.Join(root, prog, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	hot, races := "", map[string]bool{}
	for i, l := range strings.Split(string(src), "\n") {
		switch {
		case strings.Contains(l, "shard[i] = mix("):
			hot = "main.go:" + strconv.Itoa(i+1) + ":"
		case raceMarkRE.MatchString(l):
			races["main.go:"+strconv.Itoa(i+1)+":"] = true
		}
	}
	var prof strings.Builder
	prof.WriteString("racegen profile v2\nruns 1\n")
	for _, s := range sampled("-rate=1") {
		if strings.HasPrefix(s, hot) {
			prof.WriteString("1000000000\t/src/cold/" + s + "\tmain.work\n")
		}
	}
	file := filepath.Join(t.TempDir(), "hot.prof")
	if err := os.WriteFile(file, []byte(prof.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	got := sampled("-rate=0.05", "-profile="+file)
	for _, s := range got {
		if strings.HasPrefix(s, hot) {
			t.Errorf("hot loop site %s sampled", s)
		}
		delete(races, s[:strings.LastIndex(s, ":")+1])
	}
	if len(races) > 0 {
		t.Errorf("race lines with no sampled site: %v (sampled %v)", races, got)
	}
}
