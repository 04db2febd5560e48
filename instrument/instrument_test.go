package instrument

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps

// load loads the packages in the directories dirs (relative to the
// package directory) with their syntax and types.
func load(t *testing.T, dirs ...string) []*packages.Package {
	t.Helper()
	return loadTests(t, false, dirs...)
}

// loadTests is load, with the test variants of packages that have tests
// in place of the packages if tests is set.
func loadTests(t *testing.T, tests bool, dirs ...string) []*packages.Package {
	t.Helper()
	var patterns []string
	for _, d := range dirs {
		patterns = append(patterns, "./"+filepath.ToSlash(d))
	}
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode, Tests: tests}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := make(map[string]*packages.Package)
	var out []*packages.Package
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		if strings.HasSuffix(p.ID, ".test") {
			continue // the generated test main
		}
		if q, ok := byPath[p.PkgPath]; ok {
			if len(p.Syntax) <= len(q.Syntax) {
				continue
			}
			*q = *p
			continue
		}
		byPath[p.PkgPath] = p
		out = append(out, p)
	}
	return out
}

// rewrite instruments pkg.
func rewrite(t *testing.T, pkg *packages.Package) *Result {
	t.Helper()
	res, err := Package(pkg.Fset, pkg.Syntax, pkg.Types, pkg.TypesInfo, nil)
	if err != nil {
		t.Fatalf("%s: %v", pkg.PkgPath, err)
	}
	return res
}

func subdirs(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// TestGolden rewrites each package under testdata/golden, one per rewrite
// form, and compares the output with the .golden file next to the input.
// go test -run Golden -update rewrites them.
func TestGolden(t *testing.T) {
	dirs := subdirs(t, filepath.Join("testdata", "golden"))
	replace := make(map[string]string)
	tmp := t.TempDir()
	for i, pkg := range loadTests(t, true, dirs...) {
		res := rewrite(t, pkg)
		for name, src := range res.Files {
			out := filepath.Join(tmp, fmt.Sprintf("src%d_%s", i, filepath.Base(name)))
			if err := os.WriteFile(out, src, 0o666); err != nil {
				t.Fatal(err)
			}
			replace[name] = out
			dir, _ := filepath.Abs(filepath.Dir(name))
			got := strings.ReplaceAll(string(src), dir+string(filepath.Separator), "")
			golden := name + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s: rewritten output differs from %s:\n%s", name, golden, got)
			}
		}
	}
	// The rewrites must compile, tests included.
	overlay := writeOverlay(t, tmp, replace)
	var patterns []string
	for _, d := range dirs {
		patterns = append(patterns, "./"+filepath.ToSlash(d))
	}
	goCmd(t, append([]string{"vet", "-overlay=" + overlay, "-printf=false", "-unusedresult=false", "-tests=false"}, patterns...)...)
}

func writeOverlay(t *testing.T, dir string, replace map[string]string) string {
	t.Helper()
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	file := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, overlay, 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}

func goCmd(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestRun builds every program under testdata/run twice, as it is and
// instrumented, runs both and compares. Lines marked // RACE must appear in
// the race report of the instrumented program, which must then exit with
// status 66, and lines marked // NORACE must not; a program without such
// marks must report nothing. Lines marked // PANIC must appear in the
// panic's traceback.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	dirs := subdirs(t, filepath.Join("testdata", "run"))
	pkgs := load(t, dirs...)
	tmp := t.TempDir()
	replace := make(map[string]string)
	for i, pkg := range pkgs {
		res := rewrite(t, pkg)
		for name, src := range res.Files {
			out := filepath.Join(tmp, fmt.Sprintf("src%d_%s", i, filepath.Base(name)))
			if err := os.WriteFile(out, src, 0o666); err != nil {
				t.Fatal(err)
			}
			replace[name] = out
		}
	}
	overlayFile := writeOverlay(t, tmp, replace)
	origBin, instBin := filepath.Join(tmp, "orig")+"/", filepath.Join(tmp, "inst")+"/"
	var patterns []string
	for _, d := range dirs {
		patterns = append(patterns, "./"+filepath.ToSlash(d))
	}
	build := func(args ...string) {
		goCmd(t, append(append([]string{"build"}, args...), patterns...)...)
	}
	build("-o", origBin)
	build("-overlay="+overlayFile, "-o", instBin)

	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			want := marks(t, dir)
			oOut, oErr, oCode := run(t, filepath.Join(origBin, name))
			iOut, iErr, iCode := run(t, filepath.Join(instBin, name))
			if oOut != iOut {
				t.Errorf("stdout differs:\noriginal:\n%s\ninstrumented:\n%s", oOut, iOut)
			}
			raced := strings.Contains(iErr, "WARNING: DATA RACE")
			switch {
			case len(want["RACE"]) > 0:
				if !raced {
					t.Errorf("no race reported; stderr:\n%s", iErr)
				}
				if iCode != 66 && len(want["PANIC"]) == 0 {
					t.Errorf("exit status %d, want 66", iCode)
				}
				for _, pos := range want["RACE"] {
					if !strings.Contains(iErr, pos) {
						t.Errorf("race report lacks %s:\n%s", pos, iErr)
					}
				}
				for _, pos := range want["NORACE"] {
					if strings.Contains(iErr, pos+" ") || strings.Contains(iErr, pos+"\n") {
						t.Errorf("race report names %s, which races with nothing:\n%s", pos, iErr)
					}
				}
				// Functions of a command are main.F in tracebacks, for
				// the previous access too.
				if path := "testdata/run/" + name + "."; strings.Contains(iErr, path) {
					t.Errorf("race report names functions by import path (%s), not main.:\n%s", path, iErr)
				}
			default:
				if raced {
					t.Errorf("false race report:\n%s", iErr)
				}
				if iCode != oCode {
					t.Errorf("exit status %d, original %d; stderr:\n%s", iCode, oCode, iErr)
				}
			}
			for _, pos := range want["PANIC"] {
				if !strings.Contains(oErr, pos) {
					t.Errorf("original traceback lacks %s (bad test):\n%s", pos, oErr)
				}
				if !strings.Contains(iErr, pos) {
					t.Errorf("traceback lacks %s:\n%s", pos, iErr)
				}
			}

			// At rate 0 the detector stays idle, and loops run their
			// copies without hooks (see version.go): the program
			// behaves as the original and reports nothing.
			zOut, zErr, zCode := run(t, filepath.Join(instBin, name), "RACEGEN_OPTIONS=rate=0")
			if zOut != oOut {
				t.Errorf("rate 0: stdout differs:\noriginal:\n%s\ninstrumented:\n%s", oOut, zOut)
			}
			if strings.Contains(zErr, "WARNING: DATA RACE") {
				t.Errorf("rate 0: race reported:\n%s", zErr)
			}
			if zCode != oCode {
				t.Errorf("rate 0: exit status %d, original %d; stderr:\n%s", zCode, oCode, zErr)
			}
			for _, pos := range want["PANIC"] {
				if !strings.Contains(zErr, pos) {
					t.Errorf("rate 0: traceback lacks %s:\n%s", pos, zErr)
				}
			}
		})
	}
}

var markRE = regexp.MustCompile(`// (RACE|NORACE|PANIC)\b`)

// marks returns file:line of the lines of the Go files in dir marked with
// // RACE or // PANIC, by mark.
func marks(t *testing.T, dir string) map[string][]string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	m := make(map[string][]string)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, sm := range markRE.FindAllStringSubmatch(line, -1) {
				m[sm[1]] = append(m[sm[1]], fmt.Sprintf("%s:%d", filepath.Base(f), i+1))
			}
		}
	}
	for _, v := range m {
		sort.Strings(v)
	}
	return m
}

// run runs bin with env added to the environment.
func run(t *testing.T, bin string, env ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}
