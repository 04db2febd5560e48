package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
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
	base := config{rate: 1, mode: "dynamic", seed: 1, watch: 15 * time.Millisecond, watchpoints: "sw"}
	ids := map[string]string{"base": toolexecIdentity(&base, "self1")}
	for name, change := range map[string]func(c *config){
		"rate":        func(c *config) { c.rate = 0.5 },
		"mode":        func(c *config) { c.mode = "static" },
		"seed":        func(c *config) { c.seed = 2 },
		"watch":       func(c *config) { c.watch = time.Second },
		"watchpoints": func(c *config) { c.watchpoints = "hw" },
		"verbose":     func(c *config) { c.verbose = true },
	} {
		c := base
		change(&c)
		ids[name] = toolexecIdentity(&c, "self1")
	}
	ids["binary"] = toolexecIdentity(&base, "self2")
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

func TestCompilePolicy(t *testing.T) {
	self := moduleRoot(t) // before any Chdir
	root := t.TempDir()
	write := func(name, src string) string {
		t.Helper()
		name = filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
		return name
	}
	write("go.mod", "module example.com/m\n\ngo 1.24\n")
	write("nested/go.mod", "module example.com/m/nested\n\ngo 1.24\n")
	main := write("main.go", "package main\n")
	sub := write("p/q/q.go", "package q\n")
	nested := write("nested/n.go", "package nested\n")
	vendored := write("vendor/example.com/dep/dep.go", "package dep\n")
	work := filepath.Join(t.TempDir(), "b001", "_cgo_gotypes.go")
	t.Chdir(filepath.Join(root, "p")) // the go command runs in a subdirectory

	tests := []struct {
		importPath string
		flags      []string
		files      []string
		wantModule string
		wantWhy    string
	}{
		{"example.com/m", nil, []string{main}, "example.com/m", ""},
		{"example.com/m/p/q [example.com/m/p/q.test]", nil, []string{sub}, "example.com/m", ""},
		{"example.com/m/p/q_test [example.com/m/p/q.test]", nil, []string{sub}, "example.com/m", ""},
		{"command-line-arguments", nil, []string{main}, "example.com/m", ""},
		{"fmt", []string{"-std"}, []string{main}, "", ""},
		{"example.com/m/nested", nil, []string{nested}, "", ""},
		{"example.com/dep", nil, []string{vendored}, "", ""},
		{"example.com/m/p/q", nil, []string{sub, work}, "", "cgo"},
		{"example.com/m.test", nil, []string{filepath.Join(filepath.Dir(work), "_testmain.go")}, "", ""},
	}
	for _, tt := range tests {
		t.Setenv("TOOLEXEC_IMPORTPATH", tt.importPath)
		_, module, why := compilePolicy(tt.flags, tt.files)
		if module != tt.wantModule || !strings.Contains(why, tt.wantWhy) || (tt.wantWhy == "" && why != "") {
			t.Errorf("compilePolicy for %s: module %q, why %q; want %q, %q", tt.importPath, module, why, tt.wantModule, tt.wantWhy)
		}
	}

	// In racegen's own module, the detector runtime is a main-module
	// package like the others, and must still be left alone.
	t.Chdir(self)
	for _, tt := range []struct {
		importPath, file, wantModule string
	}{
		{"github.com/racegen/racegen/runtime", "runtime/hooks.go", ""},
		{"github.com/racegen/racegen/runtime [github.com/racegen/racegen/runtime.test]", "runtime/hooks.go", ""},
		{"github.com/racegen/racegen/testdata/quickstart", "testdata/quickstart/main.go", racegenModule},
	} {
		t.Setenv("TOOLEXEC_IMPORTPATH", tt.importPath)
		if _, module, _ := compilePolicy(nil, []string{filepath.Join(self, tt.file)}); module != tt.wantModule {
			t.Errorf("compilePolicy for %s: module %q, want %q", tt.importPath, module, tt.wantModule)
		}
	}
}

// TestCoverRefused checks that a main-module package compiled from the
// copies -cover makes is refused, not silently left uninstrumented.
func TestCoverRefused(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.24\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	work := filepath.Join(t.TempDir(), "b001")
	tests := []struct {
		importPath string
		flags      []string
		wantErr    bool
	}{
		{"example.com/m/p [example.com/m/p.test]", []string{"-p", "example.com/m/p", "-coveragecfg=" + work + "/cover.cfg"}, true},
		{"example.com/other", []string{"-p", "example.com/other", "-coveragecfg=" + work + "/cover.cfg"}, false},
	}
	for _, tt := range tests {
		t.Setenv("TOOLEXEC_IMPORTPATH", tt.importPath)
		var out strings.Builder
		// A tool that fails if run: only a refusal comes before it.
		args := append(tt.flags, filepath.Join(work, "p.cover.go"))
		err := toolexecCompile(&config{mode: "dynamic", rate: 1}, "false", args, &out, &out)
		if got := err != nil && strings.Contains(err.Error(), "-cover"); got != tt.wantErr {
			t.Errorf("compile of %s with -coveragecfg: error %v; want a refusal: %v", tt.importPath, err, tt.wantErr)
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
