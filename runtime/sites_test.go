package runtime

import (
	"slices"
	"testing"
)

func TestSiteLines(t *testing.T) {
	tests := []struct {
		name  string
		table string
		want  []string
	}{
		{"whole lines", "a.go:1:2\tp.F\nb.go:3:4\tp.G\n",
			[]string{"a.go:1:2\tp.F", "b.go:3:4\tp.G"}},
		{"same file and function", "a.go:1:2\tp.F\n:5:6\t\n:7:8\t\n",
			[]string{"a.go:1:2\tp.F", "a.go:5:6\tp.F", "a.go:7:8\tp.F"}},
		{"same file, another function", "a.go:1:2\tp.F\n:5:6\tp.G\n:7:8\t\n",
			[]string{"a.go:1:2\tp.F", "a.go:5:6\tp.G", "a.go:7:8\tp.G"}},
		{"another file, same function", "a.go:1:2\tp.F\nb.go:5:6\t\n:7:8\tp.H\n",
			[]string{"a.go:1:2\tp.F", "b.go:5:6\tp.F", "b.go:7:8\tp.H"}},
		{"colons in the file", "/x:y/a:b.go:1:2\tp.F\n:3:4\t\n",
			[]string{"/x:y/a:b.go:1:2\tp.F", "/x:y/a:b.go:3:4\tp.F"}},
		{"no final newline", "a.go:1:2\tp.F\n:3:4\t",
			[]string{"a.go:1:2\tp.F", "a.go:3:4\tp.F"}},
		{"first line without function", "a.go:1:2\t\n:3:4\tp.F\n",
			[]string{"a.go:1:2\t", "a.go:3:4\tp.F"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := siteLines(tt.table); !slices.Equal(got, tt.want) {
				t.Errorf("siteLines(%q) = %q, want %q", tt.table, got, tt.want)
			}
		})
	}
}
