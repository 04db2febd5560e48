package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWithoutConstraints(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"go:build", "//go:build race\n\npackage p\n", "//             \n\npackage p\n"},
		{"plus build", "// +build race\n\npackage p\n", "//            \n\npackage p\n"},
		{"both, after a comment", "// Copyright\n\n//go:build !race\n// +build !race\n\npackage p\n",
			"// Copyright\n\n//              \n//             \n\npackage p\n"},
		{"crlf", "//go:build race\r\n\r\npackage p\r\n", "//             \r\n\r\npackage p\r\n"},
		{"after the package clause", "package p\n\n//go:build race\n", "package p\n\n//go:build race\n"},
	} {
		if got := string(withoutConstraints([]byte(tt.src))); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRaceTag runs racegen test on a module whose tests differ under the
// race build tag, with an overlay of the user's own: the tests of the tag
// run, those it rules out do not, the user's overlay still applies, and
// the module is left as it was.
func TestRaceTag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	mod := tempModule(t, map[string]string{
		"go.mod":      "module example.com/tagged\n\ngo 1.21\n",
		"greeting.go": "package tagged\n\nconst Greeting = \"on disk\"\n",
		"norace_test.go": "//go:build !race\n\npackage tagged\n\nimport \"testing\"\n\n" +
			"func TestWithoutTag(t *testing.T) { t.Fatal(\"built without the race tag\") }\n",
		"race_test.go": "//go:build race\n\npackage tagged\n\nimport \"testing\"\n\n" +
			"func TestWithTag(t *testing.T) {\n\tif Greeting != \"overlaid\" {\n\t\tt.Fatalf(\"Greeting %q: the user's overlay was lost\", Greeting)\n\t}\n}\n",
	})
	other := t.TempDir()
	repl := filepath.Join(other, "greeting.go")
	if err := os.WriteFile(repl, []byte("package tagged\n\nconst Greeting = \"overlaid\"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	ov, err := json.Marshal(overlay{Replace: map[string]string{"greeting.go": repl}})
	if err != nil {
		t.Fatal(err)
	}
	userOverlay := filepath.Join(other, "overlay.json")
	if err := os.WriteFile(userOverlay, ov, 0o666); err != nil {
		t.Fatal(err)
	}
	before := treeHash(t, mod)

	var out bytes.Buffer
	code := run([]string{"-o", testOut, "test", "-C", mod, "-count=1", "-v", "-overlay", userOverlay, "."}, &out, &out)
	if code != 0 {
		t.Fatalf("racegen test: exit %d\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "--- PASS: TestWithTag") || strings.Contains(out.String(), "TestWithoutTag") {
		t.Errorf("want TestWithTag run and TestWithoutTag left out:\n%s", out.String())
	}
	if treeHash(t, mod) != before {
		t.Errorf("racegen test changed the module's files")
	}
}
