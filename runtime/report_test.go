package runtime_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	rt "github.com/racegen/racegen/runtime"
)

// childEnv selects a scenario for the test binary re-executed as a child
// process, for the behaviour that ends or configures a whole process.
const childEnv = "RACEGEN_TEST_CHILD"

// childRace makes one write/write race between a created goroutine and the
// calling goroutine, on sites at fixed, registered positions.
var childSites = [2]uint64{
	siteAt("/src/proj/racy.go", 12, "proj.writer"),
	siteAt("/src/proj/racy.go", 20, "proj.main"),
}

func childRace() {
	x := newObject()
	s1, s2 := childSites[0], childSites[1]
	<-goInstr(func() { rt.Write(x, 8, s1) })
	rt.Write(x, 8, s2)
}

func runChild() {
	switch os.Getenv(childEnv) {
	case "exit0":
		childRace()
		rt.Exit(0) // a racy program's status 0 becomes the exitcode option
	case "exit3":
		childRace()
		rt.Exit(3) // a failure status is kept
	case "maindone":
		childRace()
		rt.MainDone()
		fmt.Println("MainDone returned")
	case "maindone-clean":
		rt.MainDone()
		fmt.Println("MainDone returned")
	case "halt":
		childRace()
		fmt.Println("continued after the race")
	case "twice":
		childRace()
		childRace() // same sites: reported once
		rt.Exit(0)
	case "shared-slots":
		sharedSlots()
	}
	os.Exit(0)
}

type childResult struct {
	code   int
	stdout string
	stderr string
}

func runChildProcess(t *testing.T, scenario, options string) childResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+scenario, rt.OptionsEnv+"="+options)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return childResult{code, stdout.String(), stderr.String()}
}

func TestExitStatus(t *testing.T) {
	tests := []struct {
		scenario, options string
		code              int
		races             int // reports on stderr
		stdout            string
	}{
		{"exit0", "", 66, 1, ""},
		{"exit0", "exitcode=7", 7, 1, ""},
		{"exit3", "", 3, 1, ""},
		{"maindone", "", 66, 1, ""},
		{"maindone-clean", "", 0, 0, "MainDone returned\n"},
		{"halt", "halt_on_error=1", 66, 1, ""},
		{"halt", "halt_on_error=0", 0, 1, "continued after the race\n"},
		{"twice", "", 66, 1, ""},
		{"twice", "suppress_equal_stacks=0", 66, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.options, func(t *testing.T) {
			r := runChildProcess(t, tt.scenario, tt.options)
			if r.code != tt.code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if n := strings.Count(r.stderr, "WARNING: DATA RACE"); n != tt.races {
				t.Errorf("%d reports, want %d; stderr:\n%s", n, tt.races, r.stderr)
			}
			if r.stdout != tt.stdout {
				t.Errorf("stdout %q, want %q", r.stdout, tt.stdout)
			}
		})
	}
}

func TestOptionsInChild(t *testing.T) {
	t.Run("strip_path_prefix", func(t *testing.T) {
		r := runChildProcess(t, "exit0", "strip_path_prefix=/src/")
		if !strings.Contains(r.stderr, "\n      proj/racy.go:12\n") || strings.Contains(r.stderr, "/src/proj") {
			t.Errorf("prefix not stripped:\n%s", r.stderr)
		}
	})
	t.Run("log_path", func(t *testing.T) {
		base := filepath.Join(t.TempDir(), "report")
		r := runChildProcess(t, "exit0", "log_path="+base)
		if strings.Contains(r.stderr, "DATA RACE") {
			t.Errorf("report on stderr with log_path set:\n%s", r.stderr)
		}
		files, _ := filepath.Glob(base + ".*")
		if len(files) != 1 {
			t.Fatalf("log files %v, want one %s.PID", files, base)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(b), "WARNING: DATA RACE") != 1 || r.code != 66 {
			t.Errorf("status %d, log:\n%s", r.code, b)
		}
	})
	t.Run("format=json", func(t *testing.T) {
		r := runChildProcess(t, "exit0", "format=json strip_path_prefix=/src/")
		var got struct {
			Addr   string
			Access struct {
				Op        string
				Goroutine int64
				Stack     []struct {
					Func, File string
					Line       int
				}
			}
			Previous struct {
				Op    string
				Stack []struct {
					Func, File string
					Line       int
				}
			}
		}
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if len(lines) != 1 {
			t.Fatalf("want one JSON line, got:\n%s", r.stderr)
		}
		if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
			t.Fatalf("%v: %s", err, lines[0])
		}
		if got.Access.Op != "write" || got.Previous.Op != "write" || !strings.HasPrefix(got.Addr, "0x") ||
			got.Access.Goroutine <= 0 || len(got.Access.Stack) == 0 ||
			len(got.Previous.Stack) != 1 || got.Previous.Stack[0].File != "proj/racy.go" || got.Previous.Stack[0].Line != 12 {
			t.Errorf("bad JSON report: %s", lines[0])
		}
	})
}

func TestParseOptions(t *testing.T) {
	def := rt.Options{ExitCode: 66, Dedup: true}
	tests := []struct {
		in   string
		want rt.Options
		errs int
	}{
		{"", def, 0},
		{"log_path=/tmp/r", rt.Options{LogPath: "/tmp/r", ExitCode: 66, Dedup: true}, 0},
		{"exitcode=0", rt.Options{ExitCode: 0, Dedup: true}, 0},
		{"exitcode=255", rt.Options{ExitCode: 255, Dedup: true}, 0},
		{"exitcode=256", def, 1},
		{"exitcode=-1", def, 1},
		{"exitcode=x", def, 1},
		{"halt_on_error=1", rt.Options{ExitCode: 66, HaltOnError: true, Dedup: true}, 0},
		{"halt_on_error=true", rt.Options{ExitCode: 66, HaltOnError: true, Dedup: true}, 0},
		{"halt_on_error=0", def, 0},
		{"halt_on_error=yes", def, 1},
		{"debug_clocks=1", rt.Options{ExitCode: 66, Dedup: true, DebugClocks: true}, 0},
		{"debug_clocks=2", def, 1},
		{"strip_path_prefix=/a/b/", rt.Options{ExitCode: 66, StripPathPrefix: "/a/b/", Dedup: true}, 0},
		{"format=json", rt.Options{ExitCode: 66, JSON: true, Dedup: true}, 0},
		{"format=text", def, 0},
		{"format=xml", def, 1},
		{"suppress_equal_stacks=0", rt.Options{ExitCode: 66}, 0},
		{"suppress_equal_stacks=1", def, 0},
		{"colour=1", def, 1},
		{"novalue", def, 1},
		{"  exitcode=1   halt_on_error=1  format=json ", rt.Options{ExitCode: 1, HaltOnError: true, JSON: true, Dedup: true}, 0},
		{"exitcode=300 format=json bogus", rt.Options{ExitCode: 66, JSON: true, Dedup: true}, 2},
	}
	for _, tt := range tests {
		got, errs := rt.ParseOptions(tt.in)
		if got != tt.want || len(errs) != tt.errs {
			t.Errorf("ParseOptions(%q) = %+v, %v; want %+v with %d errors", tt.in, got, errs, tt.want, tt.errs)
		}
	}
}

// TestReportFormat checks a report against go build -race's layout: the
// current access with this test's stack, the previous one at its
// registered site, and where the goroutines were created.
func TestReportFormat(t *testing.T) {
	x := newObject()
	prev := siteAt("/src/proj/racy.go", 12, "proj.reader")
	cur := newSite()
	var forkLine, writeLine int
	text := expectRaces(t, 1, func() {
		_, _, forkLine, _ = runtime.Caller(0)
		done := goInstr(func() { rt.Read(x, 8, prev) })
		<-done
		_, _, writeLine, _ = runtime.Caller(0)
		rt.Write(x, 8, cur)
	})
	_, file, _, _ := runtime.Caller(0)
	want := []string{
		`^==================\nWARNING: DATA RACE\n`,
		fmt.Sprintf(`Write at 0x%012x by goroutine \d+:\n`, x),
		// The current stack starts at the test's own frame.
		fmt.Sprintf(`by goroutine \d+:\n  github.com/racegen/racegen/runtime_test.TestReportFormat.func\d+\(\)\n      %s:%d \+0x[0-9a-f]+\n`,
			regexp.QuoteMeta(file), writeLine+1),
		fmt.Sprintf(`\n\nPrevious read at 0x%012x by goroutine \d+:\n  proj.reader\(\)\n      /src/proj/racy.go:12\n`, x),
		// The previous goroutine was created by goInstr, called from
		// the test.
		`\n\nGoroutine \d+ \(finished\) created at:\n  github.com/racegen/racegen/runtime_test.goInstr\(\)\n`,
		fmt.Sprintf(`runtime_test.TestReportFormat.func\d+\(\)\n      %s:%d \+0x`, regexp.QuoteMeta(file), forkLine+1),
		// The current goroutine is the test's, started by testing.
		`\n\nGoroutine \d+ \(running\) created at:\n  testing.\(\*T\).Run\(\)\n`,
		`\n==================\n$`,
	}
	for _, re := range want {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("report does not match %s:\n%s", re, text)
		}
	}
	// No frame of the detector itself.
	if strings.Contains(text, "racegen/runtime.") {
		t.Errorf("detector frames in report:\n%s", text)
	}

	// The same pair of sites is reported once, whatever the address.
	y := newObject()
	expectRaces(t, 0, func() {
		<-goInstr(func() { rt.Read(y, 8, prev) })
		rt.Write(y, 8, cur)
	})
}
