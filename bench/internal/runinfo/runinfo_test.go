package runinfo

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"-reps":         "-reps",
		"^(a|b)$":       `'^(a|b)$'`,
		"it's":          `'it'\''s'`,
		"":              "''",
		"-rates=0,0.01": "-rates=0,0.01",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSaveLoadJSON(t *testing.T) {
	type rec struct {
		Name  string
		Rates []float64
	}
	path := filepath.Join(t.TempDir(), "results.json")
	in := rec{"msort", []float64{0, 0.01, 1}}
	if err := SaveJSON(path, in); err != nil {
		t.Fatal(err)
	}
	var out rec
	if err := LoadJSON(path, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("loaded %+v, saved %+v", out, in)
	}
}

func TestSourcesCommit(t *testing.T) {
	repo, err := RepoRoot()
	if err != nil {
		t.Skip(err)
	}
	head := SourcesCommit(repo, "HEAD")
	if head == "" {
		t.Skip("git cannot tell here (no git, or no history)")
	}
	// The commit that last changed the sources is its own answer.
	if again := SourcesCommit(repo, head); again != head {
		t.Errorf("SourcesCommit(%s) = %s, want itself", head, again)
	}
}

func TestLastLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"a\nb\nc\n", 2, "b\nc"},
		{"a\nb\n", 5, "a\nb"},
		{"\n  only\n\n", 1, "only"},
	} {
		if got := LastLines(tc.in, tc.n); got != tc.want {
			t.Errorf("LastLines(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestRun(t *testing.T) {
	out, err := Run(t.TempDir(), []string{"RUNINFO_TEST=x"}, "sh", "-c", "echo $RUNINFO_TEST $GOWORK")
	if err != nil || string(out) != "x off\n" {
		t.Errorf("Run = %q, %v; want %q", out, err, "x off\n")
	}
	_, err = Run(t.TempDir(), nil, "sh", "-c", "echo one >&2; echo two >&2; exit 3")
	if err == nil || !strings.Contains(err.Error(), "one\ntwo") {
		t.Errorf("Run of a failing command: error %v, want one carrying its standard error", err)
	}
}

func TestRacegenGiven(t *testing.T) {
	// A -racegen command is looked up on PATH and made absolute; nothing
	// is built.
	got, err := Racegen("/nonexistent", t.TempDir(), "sh")
	if err != nil || !filepath.IsAbs(got) {
		t.Errorf("Racegen(-racegen=sh) = %q, %v; want an absolute path", got, err)
	}
	if _, err := Racegen("/nonexistent", t.TempDir(), "no-such-racegen-command"); err == nil {
		t.Errorf("Racegen(-racegen=no-such-racegen-command) succeeded")
	}
}
