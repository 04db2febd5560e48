package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestFormCommands(t *testing.T) {
	args := []string{"-json", "./..."}
	want := map[string]string{
		formGo:       "go test -json ./...",
		formRace:     "go test -race -json ./...",
		formFull:     "/bin/racegen -rate=1 test -json ./...",
		formToolexec: "go test -toolexec=/bin/racegen -rate=1 toolexec -json ./...",
		formSampled:  "/bin/racegen -rate=0.01 test -json ./...",
	}
	for _, f := range forms {
		got := f.command("/bin/racegen", args)
		if strings.Join(got, " ") != want[f.Name] {
			t.Errorf("%s: %q, want %s", f.Name, got, want[f.Name])
		}
		if f.Toolexec && got[2] != "-toolexec=/bin/racegen -rate=1 toolexec" {
			t.Errorf("%s: the -toolexec value must be one argument: %q", f.Name, got)
		}
	}
	if got := strings.Join(args, " "); got != "-json ./..." {
		t.Errorf("command changed its arguments to %q", got)
	}
}

func TestParseForms(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"go,race,full,toolexec,rate0.01", []string{"go", "race", "full", "toolexec", "rate0.01"}, false},
		{"full, go", []string{"go", "full"}, false}, // report order
		{"race", nil, true}, // no baseline
		{"go,tsan", nil, true},
	} {
		got, err := parseForms(tt.in)
		if (err != nil) != tt.err || !slices.Equal(got, tt.want) {
			t.Errorf("parseForms(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestWithEnv(t *testing.T) {
	env := []string{"HOME=/root", "GOFLAGS=-race", "GOPROXY=https://proxy", "PATH=/bin"}
	got := withEnv(env, []string{"GOFLAGS=-mod=readonly", "GOPROXY=off", "RACEGEN_OPTIONS="})
	want := []string{"HOME=/root", "PATH=/bin", "GOFLAGS=-mod=readonly", "GOPROXY=off", "RACEGEN_OPTIONS="}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestModuleList checks the pinned list's entries: each names its
// version and purpose, once, and says why when it narrows the suite.
func TestModuleList(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range moduleList {
		if m.Path == "" || !strings.HasPrefix(m.Version, "v") || m.Why == "" {
			t.Errorf("%+v: want a path, a version and why it is listed", m)
		}
		if seen[m.Path] {
			t.Errorf("%s listed twice", m.Path)
		}
		seen[m.Path] = true
		if (len(m.Pkgs) > 0 || m.Skip != "") != (m.Narrowed != "") {
			t.Errorf("%s: Narrowed must say why exactly when Pkgs or Skip narrow the suite", m.Path)
		}
		if _, err := regexp.Compile(m.Skip); err != nil {
			t.Errorf("%s: Skip: %v", m.Path, err)
		}
	}
}

func TestModuleName(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/dgraph-io/ristretto/v2": "dgraph-io/ristretto/v2",
		"golang.org/x/sync":                 "golang.org/x/sync",
		"go.uber.org/zap":                   "go.uber.org/zap",
	} {
		if got := (module{Path: path}).Name(); got != want {
			t.Errorf("Name(%s) = %s, want %s", path, got, want)
		}
	}
}

func TestRepoBase(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/dgraph-io/ristretto/v2": "ristretto",
		"go.uber.org/zap":                   "zap",
		"golang.org/x/sync":                 "sync",
		"gopkg.in/yaml.v3":                  "yaml.v3",
		"example.com/v2":                    "example.com",
		"example.com/m/vendor":              "vendor",
	} {
		if got := repoBase(path); got != want {
			t.Errorf("repoBase(%s) = %s, want %s", path, got, want)
		}
	}
}

func TestShortFunc(t *testing.T) {
	for fn, want := range map[string]string{
		"example.com/m/z.(*T).M":                                "z.(*T).M",
		"github.com/dgraph-io/ristretto/v2.(*Cache[...]).Close": "ristretto/v2.(*Cache[...]).Close",
		"main.main":                           "main.main",
		"go.uber.org/atomic.TestString.func2": "atomic.TestString.func2",
	} {
		if got := shortFunc(fn); got != want {
			t.Errorf("shortFunc(%s) = %s, want %s", fn, got, want)
		}
	}
}
