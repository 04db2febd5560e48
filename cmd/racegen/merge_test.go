package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestMergeGolden merges testdata/merge/fleet, the report files of seven
// runs, among them a line of bad JSON, a text report, reports cut short
// with and without a final newline, an empty file and a program's own
// JSON log, and compares the text, JSON and warnings with the golden
// files beside it.
func TestMergeGolden(t *testing.T) {
	dir := filepath.Join("testdata", "merge")
	for _, tt := range []struct {
		args   []string
		golden string
	}{
		{[]string{filepath.Join(dir, "fleet")}, "fleet.txt"},
		{[]string{"-json", filepath.Join(dir, "fleet")}, "fleet.json"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMerge(tt.args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("racegen merge %v: exit %d\n%s", tt.args, code, stderr.String())
		}
		checkGolden(t, filepath.Join(dir, tt.golden), stdout.Bytes())
		checkGolden(t, filepath.Join(dir, "fleet.warnings"), stderr.Bytes())
	}
}

// checkGolden compares got with the golden file, or rewrites it with
// -update.
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -run %s -update rewrites it):\n%s", golden, t.Name(), got)
	}
}

func TestMergeErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"testdata/merge/no-such-dir"}, 1, "no such file or directory"},
		{[]string{"-bogus"}, 2, "flag provided but not defined"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMerge(tt.args, nil, &stdout, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("racegen merge %v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr.String(), tt.code, tt.msg)
		}
	}
}

// TestMergeRuns runs a racy program built by racegen several times with
// its reports in JSON files, as a fleet would, and merges them: each of
// the program's races appears once, with the sites marked in its source
// and every run counted.
func TestMergeRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	root := moduleRoot(t)
	prog := filepath.Join(root, "testdata", "programs", "counter_racy")
	bin := filepath.Join(t.TempDir(), "counter_racy")
	var msg bytes.Buffer
	if code := run([]string{"-o", testOut, "build", "-C", root, "-o", bin, "./testdata/programs/counter_racy"}, &msg, &msg); code != 0 {
		t.Fatalf("racegen build: exit %d\n%s", code, msg.String())
	}
	logs := t.TempDir()
	const runs = 3
	for range runs {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "RACEGEN_OPTIONS=format=json log_path="+filepath.Join(logs, "app"))
		if err := cmd.Run(); err == nil {
			t.Fatal("the racy program exited 0")
		}
	}
	var stdout, stderr bytes.Buffer
	if code := runMerge([]string{"-json", logs}, nil, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("racegen merge: exit %d\n%s", code, stderr.String())
	}
	var res mergeResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Runs != runs || len(res.Races) != 1 {
		t.Fatalf("%d runs, %d races, want %d runs and 1 race:\n%s", res.Runs, len(res.Races), runs, stdout.String())
	}
	r := res.Races[0]
	var sites []string
	for _, s := range r.Sites {
		sites = append(sites, filepath.Base(s))
	}
	if marks := markedLines(t, prog); !slices.Equal(sites, marks) {
		t.Errorf("race between %v, want the marked lines %v", sites, marks)
	}
	if r.Runs != runs || r.Reports != runs || r.First.IsZero() || r.Last.Before(r.First) {
		t.Errorf("race seen %d times in %d runs from %v to %v; want once in each of %d runs", r.Reports, r.Runs, r.First, r.Last, runs)
	}
}

// TestMergeProfiles sums the profiles of testdata/merge/profiles, three
// runs in two files beside a file that is not a profile and a profile of
// the first format, whose counts were not scaled by rate: both are
// skipped with a warning.
func TestMergeProfiles(t *testing.T) {
	dir := filepath.Join("testdata", "merge")
	var stdout, stderr bytes.Buffer
	if code := runMerge([]string{"-profiles", filepath.Join(dir, "profiles")}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("racegen merge -profiles: exit %d\n%s", code, stderr.String())
	}
	checkGolden(t, filepath.Join(dir, "profiles.prof"), stdout.Bytes())
	warns := stderr.String()
	if !strings.Contains(warns, "notes.txt: not a racegen profile") || !strings.Contains(warns, "old.203: a profile of an earlier racegen") || strings.Count(warns, "\n") != 2 {
		t.Errorf("want two warnings, about notes.txt and old.203; got:\n%s", warns)
	}
	if err := checkProfile(stdout.Bytes()); err != nil {
		t.Errorf("the merged profile does not parse: %v", err)
	}
}
