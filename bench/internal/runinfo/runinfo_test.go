package runinfo

import (
	"path/filepath"
	"reflect"
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
