package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/racegen/racegen/instrument"
)

func TestParseImportCfg(t *testing.T) {
	tests := []struct {
		in      string
		files   map[string]string
		maps    map[string]string
		wantErr string
	}{
		{
			in:    "# import config\npackagefile fmt=/c/fmt.a\npackagefile example.com/p=/w/b002/_pkg_.a\n",
			files: map[string]string{"fmt": "/c/fmt.a", "example.com/p": "/w/b002/_pkg_.a"},
			maps:  map[string]string{},
		},
		{
			in:    "importmap golang.org/x/net/http2=vendor/golang.org/x/net/http2\npackagefile vendor/golang.org/x/net/http2=/c/h2.a\nmodinfo \"x\"\n",
			files: map[string]string{"vendor/golang.org/x/net/http2": "/c/h2.a"},
			maps:  map[string]string{"golang.org/x/net/http2": "vendor/golang.org/x/net/http2"},
		},
		{in: "packagefile fmt\n", wantErr: "line 1"},
		{in: "importmap =x\n", wantErr: "line 1"},
	}
	for _, tt := range tests {
		c, err := parseImportCfg([]byte(tt.in))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseImportCfg(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseImportCfg(%q): %v", tt.in, err)
			continue
		}
		if !equalMaps(c.packageFile, tt.files) || !equalMaps(c.importMap, tt.maps) {
			t.Errorf("parseImportCfg(%q) = %v, %v; want %v, %v", tt.in, c.packageFile, c.importMap, tt.files, tt.maps)
		}
		if got := string(c.bytes()); got != tt.in {
			t.Errorf("parseImportCfg(%q).bytes() = %q, want the input", tt.in, got)
		}
	}
}

func TestImportCfgAddPackageFile(t *testing.T) {
	c, err := parseImportCfg([]byte("packagefile fmt=/c/fmt.a\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.addPackageFile("fmt", "/other/fmt.a") {
		t.Errorf("addPackageFile replaced the build's own fmt")
	}
	if !c.addPackageFile("example.com/rt", "/c/rt.a") {
		t.Errorf("addPackageFile did not add a new package")
	}
	want := "packagefile fmt=/c/fmt.a\npackagefile example.com/rt=/c/rt.a\n"
	if got := string(c.bytes()); got != want {
		t.Errorf("after addPackageFile: %q, want %q", got, want)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestPickObjectFlags(t *testing.T) {
	tests := []struct {
		args []string
		run  bool
		want []string
	}{
		{[]string{"-o", "app", "./cmd/app"}, false, nil},
		{[]string{"-trimpath", "-gcflags", "all=-N -l", "-v", "."}, false, []string{"-trimpath=true", "-gcflags=all=-N -l"}},
		{[]string{"-tags=netgo", "-buildmode", "pie", "./..."}, false, []string{"-tags=netgo", "-buildmode=pie"}},
		{[]string{"./p", "-run", "X", "-asan", "-args", "-trimpath"}, false, []string{"-asan=true"}},
		{[]string{"-toolexec", "racegen toolexec", "-pgo=off", "."}, false, []string{"-pgo=off"}},
		// go run: what follows the package is the program's.
		{[]string{"-trimpath", ".", "-gcflags=x"}, true, []string{"-trimpath=true"}},
	}
	for _, tt := range tests {
		if got := pickObjectFlags(tt.args, tt.run); !slices.Equal(got, tt.want) {
			t.Errorf("pickObjectFlags(%q, %v) = %q, want %q", tt.args, tt.run, got, tt.want)
		}
	}
}

func TestSplitQuoted(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"-trimpath  -tags=a,b", []string{"-trimpath", "-tags=a,b"}},
		{"'-toolexec=racegen -rate=0.1 toolexec' -trimpath", []string{"-toolexec=racegen -rate=0.1 toolexec", "-trimpath"}},
		{`"-gcflags=all=-N -l"` + "\t-v", []string{"-gcflags=all=-N -l", "-v"}},
		{"'unterminated", []string{"unterminated"}},
	}
	for _, tt := range tests {
		if got := splitQuoted(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitQuoted(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestVersionLine(t *testing.T) {
	tests := []struct {
		line, id, want string
	}{
		{"compile version go1.26.8", "racegen=ab,mode=dynamic", "compile version go1.26.8 racegen=ab,mode=dynamic"},
		{"link version go1.26.8 X:nodwarf5", "racegen=ab", "link version go1.26.8 X:nodwarf5 racegen=ab"},
		// A development toolchain: only the content ID of buildID counts.
		{"compile version devel go1.27-abc buildID=x/y", "racegen=ab", "compile version devel go1.27-abc buildID=x/y+"},
	}
	for _, tt := range tests {
		got := versionLine(tt.line, tt.id)
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("versionLine(%q, %q) = %q, want prefix %q", tt.line, tt.id, got, tt.want)
		}
		f := strings.Fields(got)
		if last := f[len(f)-1]; strings.HasPrefix(last, "buildID=") && strings.Count(last, "/") != strings.Count(tt.line, "/") {
			t.Errorf("versionLine(%q) = %q: the build ID gained a separator", tt.line, got)
		}
	}
	// The identity differs whenever the instrumented code would.
	base := config{rate: 1, mode: instrument.Dynamic, seed: 1, watch: 15 * time.Millisecond, watchpoints: "sw"}
	ids := map[string]string{"base": toolexecIdentity(&base, "self1", "/root1")}
	for name, change := range map[string]func(c *config){
		"rate":        func(c *config) { c.rate = 0.5 },
		"mode":        func(c *config) { c.mode = instrument.Static },
		"seed":        func(c *config) { c.seed = 2 },
		"watch":       func(c *config) { c.watch = time.Second },
		"watchpoints": func(c *config) { c.watchpoints = "hw" },
		"verbose":     func(c *config) { c.verbose = true },
		"accesspkg":   func(c *config) { c.access = []string{"std"} },
	} {
		c := base
		change(&c)
		ids[name] = toolexecIdentity(&c, "self1", "/root1")
	}
	ids["binary"] = toolexecIdentity(&base, "self2", "/root1")
	ids["root"] = toolexecIdentity(&base, "self1", "/root2")
	seen := map[string]string{}
	for name, id := range ids {
		if other, ok := seen[id]; ok {
			t.Errorf("configurations %s and %s have the same identity %q", name, other, id)
		}
		seen[id] = name
	}
}

func TestIsVetInvocation(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"/tmp/b001/vet.cfg"}, true},
		{[]string{"-racegenreport.local", "/tmp/b001/vet.cfg"}, true},
		{nil, false},
		{[]string{"./..."}, false},
		{[]string{"build", "x.cfg"}, false},
		{[]string{"-rate=1", "toolexec", "/go/pkg/tool/linux_amd64/compile", "-V=full"}, false},
	}
	for _, tt := range tests {
		if got := isVetInvocation(tt.args); got != tt.want {
			t.Errorf("isVetInvocation(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestScopeOf(t *testing.T) {
	p := &policy{closure: map[string]bool{"sync": true, "internal/race": true, instrument.RuntimePath: true}}
	narrow := &policy{closure: p.closure, access: []string{"example.com/m/...", "encoding/json"}}
	tests := []struct {
		p    *policy
		path string
		std  bool
		want scope
	}{
		{p, "example.com/m", false, scopeFull},
		{p, "example.com/m/p [example.com/m/p.test]", false, scopeFull},
		{p, "fmt", true, scopeFull},
		{p, "internal/poll", true, scopeFull},
		{p, "sync", true, scopeNone},
		{p, "internal/race", true, scopeNone},
		{p, "runtime", true, scopeNone},
		{p, "internal/runtime/maps", true, scopeNone},
		{p, "runtime/cgo", true, scopeNone},
		{p, instrument.RuntimePath, false, scopeNone},
		{narrow, "example.com/m", false, scopeFull},
		{narrow, "example.com/m/p_test [example.com/m/p.test]", false, scopeFull},
		{narrow, "example.com/m.test", false, scopeFull},
		{narrow, "example.com/mm", false, scopeSync},
		{narrow, "encoding/json", true, scopeFull},
		{narrow, "fmt", true, scopeSync},
		{narrow, "sync", true, scopeNone},
		{&policy{access: []string{"std"}}, "fmt", true, scopeFull},
		{&policy{access: []string{"std"}}, "hello", false, scopeSync},
		{&policy{access: []string{"example.com/.../x"}}, "example.com/a/b/x", false, scopeFull},
		{&policy{access: []string{"example.com/.../x"}}, "example.com/a/b/y", false, scopeSync},
	}
	for _, tt := range tests {
		if got, why := tt.p.scopeOf(tt.path, tt.std); got != tt.want {
			t.Errorf("scopeOf(%q, std=%v) with -accesspkg %q = %v (%s), want %v", tt.path, tt.std, tt.p.access, got, why, tt.want)
		}
	}
}

func TestLangForHooks(t *testing.T) {
	for _, tt := range []struct {
		lang, want string
		bump       bool
	}{
		{"", "", false},
		{"go1.12", "go1.21", true},
		{"go1.17", "go1.21", true},
		{"go1.18", "", false},
		{"go1.21", "", false},
		{"go1.26", "", false},
	} {
		got, bump := langForHooks(tt.lang)
		if got != tt.want || bump != tt.bump {
			t.Errorf("langForHooks(%q) = %q, %v; want %q, %v", tt.lang, got, bump, tt.want, tt.bump)
		}
	}
}

// TestToolexecArgs checks the command lines the go command runs racegen
// with: racegen's flags before or after toolexec, then the tool.
func TestToolexecArgs(t *testing.T) {
	tooldir := goEnv("GOTOOLDIR")
	if tooldir == "" {
		t.Fatal("go env GOTOOLDIR: empty")
	}
	compile := filepath.Join(tooldir, "compile")
	tests := []struct {
		args     []string
		code     int
		want     string // in the output
		wantNot  string // not in the output
		wantLine bool   // the output is one -V=full line
	}{
		{args: []string{"toolexec"}, code: 2, want: "no tool to run"},
		{args: []string{"toolexec", "-rate=2", compile, "-V=full"}, code: 2, want: "want a number from 0 to 1"},
		{args: []string{"-rate=0.5", "toolexec", compile, "-V=full"}, want: "compile version ", wantLine: true},
		{args: []string{"toolexec", "-mode=static", "-seed=7", compile, "-V=full"}, want: "mode=static,rate=1,seed=7", wantLine: true},
		{args: []string{"toolexec", "-v", compile, "-V=full"}, want: ",v", wantLine: true},
		// Other tools, and other arguments, pass through unchanged.
		{args: []string{"toolexec", filepath.Join(tooldir, "asm"), "-V=full"}, want: "asm version ", wantNot: "racegen="},
	}
	for _, tt := range tests {
		var out strings.Builder
		code := run(tt.args, &out, &out)
		if code != tt.code || !strings.Contains(out.String(), tt.want) || (tt.wantNot != "" && strings.Contains(out.String(), tt.wantNot)) {
			t.Errorf("racegen %q: exit %d, output %q; want exit %d and %q", tt.args, code, out.String(), tt.code, tt.want)
		}
		if tt.wantLine && (strings.Count(out.String(), "\n") != 1 || !strings.Contains(out.String(), "racegen=")) {
			t.Errorf("racegen %q: output %q, want one line naming racegen", tt.args, out.String())
		}
	}
}

func TestToolName(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"/usr/local/go/pkg/tool/linux_amd64/compile", "compile"},
		{filepath.Join("pkg", "tool", "windows_amd64", "link.exe"), "link"},
		{"cover", "cover"},
		{"/opt/tools/compile.exe.bak", "compile.exe.bak"},
	} {
		if got := toolName(tt.path); got != tt.want {
			t.Errorf("toolName(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
