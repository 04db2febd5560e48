package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/racegen/racegen/instrument"
)

// TestStaticClockRaceRate is the per-race guarantee of static mode: a
// clock race whose second access comes within the time limit is found by
// every build that sampled a site of its first access, and a site is
// sampled by a share r of the builds (TestSiteChoiceAcrossSeeds in
// package instrument), so the race is found by at least a share r of the
// builds at rate r.
//
// Which seeds sample the first access's line is asked of the instrumenter
// in process, for many seeds; only the first few of those are built (each
// build rebuilds the standard library, 8-9 s), and each build's -v must
// agree that it sampled the line, and its run must report the race.
func TestStaticClockRaceRate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	const (
		rate   = 0.5
		seeds  = 16 // asked in process
		builds = 2  // of the seeds that sample the line, built and run
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
	sampling := seedsSampling(t, filepath.Join(mod, "main.go"), "example.com/clock", rate, wp, seeds, first)
	t.Logf("%d of %d seeds at rate %v sample %s", len(sampling), seeds, rate, first)
	if len(sampling) == 0 {
		t.Fatalf("no seed of %d at rate %v samples %s: the test checks nothing", seeds, rate, first)
	}
	sampledRE := regexp.MustCompile(`(?m)^racegen: sampled .*main\.go:(\d+):\d+$`)
	for _, seed := range sampling[:min(builds, len(sampling))] {
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
			t.Fatalf("seed %d: the instrumenter in process sampled %s, the build did not:\n%s", seed, first, msg.String())
		}
		_, stderr, code := runBinary(t, bin)
		if code != 66 || !strings.Contains(stderr.String(), "WARNING: DATA RACE") {
			t.Errorf("seed %d sampled %s, the race's first access, but the run reported no race (exit %d); stderr:\n%s", seed, first, code, stderr.String())
		}
	}
}

// seedsSampling returns the seeds among 1..seeds whose static builds at
// rate sample a site on line (file:LINE) of the one-file package path in
// file: it type-checks the file from source and runs the instrumenter on
// it as a compile would, once per seed.
func seedsSampling(t *testing.T, file, path string, rate float64, watchpoints string, seeds int, line string) []int64 {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := newInfo()
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatalf("type-checking %s: %v", file, err)
	}
	p := &checkedPackage{fset: fset, files: []*ast.File{f}, pkg: pkg, info: info}
	var out []int64
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg := &config{mode: instrument.Static, rate: rate, seed: seed, watchpoints: watchpoints}
		res, err := rewritePackage(cfg, path, p, p.files, scopeFull, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, s := range res.Sampled {
			if rest, ok := strings.CutPrefix(filepath.Base(s), line+":"); ok && !strings.Contains(rest, ":") {
				out = append(out, seed)
				break
			}
		}
	}
	return out
}
