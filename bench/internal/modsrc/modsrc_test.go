package modsrc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCopyTreeMakesWritableCopies(t *testing.T) {
	src := t.TempDir()
	files := map[string]string{
		"go.mod":            "module example.com/m\n",
		"a.go":              "package m\n",
		"sub/dir/b_test.go": "package dir\n",
	}
	for name, data := range files {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		// The module cache's files are read-only.
		if err := os.WriteFile(p, []byte(data), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.go", filepath.Join(src, "link.go")); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	if err := CopyTree(dst, src); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		p := filepath.Join(dst, name)
		got, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s not copied: %v", name, err)
			continue
		}
		if string(got) != data {
			t.Errorf("%s = %q, want %q", name, got, data)
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o200 == 0 {
			t.Errorf("%s copied read-only (%v)", name, fi.Mode())
		}
	}
	if _, err := os.Lstat(filepath.Join(dst, "link.go")); !os.IsNotExist(err) {
		t.Errorf("symbolic link copied (Lstat error %v); want only regular files", err)
	}
}
