package runtime_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	rt "github.com/racegen/racegen/runtime"
)

// The detector's goroutines, by the functions they run: the start
// functions of hidden.go and the loops they call.
var detectorGoroutineFuncs = regexp.MustCompile(`runtime\.racegen_\w+\(|racegen/runtime\.(racegen\w+|sweeper|pace|softReaper|\(\*hwWatch\)\.loop)\(`)

// startFuncs matches the start functions of hidden goroutines in a
// traceback.
var startFuncs = regexp.MustCompile(`(?m)^runtime\.(racegen_\w+)\(\)$`)

// TestHiddenInProcess checks that this test process, whose detector was
// started by the package's initialization, with the watchpoint engine
// started too, shows none of the detector's goroutines in a dump of all
// goroutines.
func TestHiddenInProcess(t *testing.T) {
	rt.WatchEngines() // starts the watchpoint engine: the reaper, the hardware loop
	buf := make([]byte, 1<<22)
	dump := string(buf[:runtime.Stack(buf, true)])
	if m := detectorGoroutineFuncs.FindAllString(dump, -1); m != nil {
		t.Errorf("the dump of all goroutines shows the detector's %q:\n%s", m, dump)
	}
}

// TestHiddenGoroutines runs testdata/hidden, built for each mode, which
// starts the detector's goroutines and reports what it sees of its
// goroutines: only its main goroutine. Made to crash with
// GOTRACEBACK=system, which shows hidden goroutines too, it must show the
// detector's, so that the first check is not passed by goroutines that
// were never started.
func TestHiddenGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goCmd := goCommand(t)
	tests := []struct {
		mode, options string
		want          []string // the start functions of the detector's goroutines
	}{
		{"dynamic", "rate=0.5 watchpoints=sw", []string{"racegen_pacer", "racegen_reaper", "racegen_sweeper"}},
		{"static", "watchpoints=sw", []string{"racegen_reaper", "racegen_sweeper"}},
		{"collide", "watchpoints=sw", []string{"racegen_reaper", "racegen_sweeper"}},
		// Hardware watchpoints, where the child can have them: it
		// cannot when this process holds them already, for it
		// inherits this process's events.
		{"static", "", []string{"racegen_reaper", "racegen_sweeper", "racegen_watchloop"}},
	}
	dir := t.TempDir()
	bins := make(map[string]string)
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.options, func(t *testing.T) {
			bin, ok := bins[tt.mode]
			if !ok {
				bin = buildHidden(t, goCmd, filepath.Join(dir, tt.mode), tt.mode)
				bins[tt.mode] = bin
			}
			env := append(os.Environ(), rt.OptionsEnv+"="+tt.options)

			out, err := runHidden(bin, env)
			if err != nil {
				t.Fatalf("%v; output:\n%s", err, out)
			}
			if !strings.Contains(out, "\nNumGoroutine 1\n") && !strings.HasPrefix(out, "NumGoroutine 1\n") {
				t.Errorf("runtime.NumGoroutine counts more than the main goroutine:\n%s", out)
			}
			if n := strings.Count(out, "\ngoroutine "); n != 1 {
				t.Errorf("runtime.Stack(buf, true) dumps %d goroutines, want only main:\n%s", n, out)
			}
			if m := detectorGoroutineFuncs.FindAllString(out, -1); m != nil {
				t.Errorf("runtime.Stack(buf, true) shows the detector's %q:\n%s", m, out)
			}

			if strings.Contains(out, "hardware watchpoints unavailable") {
				tt.want = slices.DeleteFunc(tt.want, func(f string) bool { return f == "racegen_watchloop" })
			}
			out, _ = runHidden(bin, append(env, "GOTRACEBACK=system"), "crash")
			var got []string
			for _, m := range startFuncs.FindAllStringSubmatch(out, -1) {
				got = append(got, m[1])
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("with GOTRACEBACK=system the crash shows the goroutines %q, want %q:\n%s", got, tt.want, out)
			}
		})
	}
}

// buildHidden builds testdata/hidden for the detector mode mode in a new
// directory dir and returns the executable's path.
func buildHidden(t *testing.T, goCmd, dir, mode string) string {
	t.Helper()
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "hidden")
	args := []string{"build", "-o", bin}
	if mode != "dynamic" {
		args = append(args, "-overlay", modeOverlay(t, dir, mode))
	}
	cmd := exec.Command(goCmd, append(args, "./testdata/hidden")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build for %s mode: %v\n%s", mode, err, out)
	}
	return bin
}

// modeOverlay writes into dir an overlay file for go build -overlay that
// gives this package the config.go racegen writes for the detector mode
// mode, and returns its path.
func modeOverlay(t *testing.T, dir, mode string) string {
	t.Helper()
	cfg, err := os.ReadFile("config.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`const buildMode = "dynamic"`)
	if !re.Match(cfg) {
		t.Fatalf("config.go does not set buildMode to \"dynamic\":\n%s", cfg)
	}
	cfg = re.ReplaceAll(cfg, []byte("const buildMode = "+strconv.Quote(mode)))
	cfgPath := filepath.Join(dir, "config.go")
	if err := os.WriteFile(cfgPath, cfg, 0o666); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs("config.go")
	if err != nil {
		t.Fatal(err)
	}
	ov, err := json.Marshal(map[string]map[string]string{"Replace": {abs: cfgPath}})
	if err != nil {
		t.Fatal(err)
	}
	ovPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o666); err != nil {
		t.Fatal(err)
	}
	return ovPath
}

// runHidden runs the program bin with env and args, and returns what it
// printed.
func runHidden(bin string, env []string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		err = errors.New("exit status " + strconv.Itoa(ee.ExitCode()))
	}
	return string(out), err
}
