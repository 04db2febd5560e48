package instrument

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGoldenStatic rewrites testdata/static/access for static mode with
// every site sampled (SR/SW), with none sampled and software checks
// (CR/CW), and with none sampled and no checks (no access code at all),
// compares each with its golden file and checks that each compiles.
func TestGoldenStatic(t *testing.T) {
	pkg := load(t, filepath.Join("testdata", "static", "access"))[0]
	cases := []struct {
		golden string
		cfg    Config
	}{
		{"rate1", Config{Mode: Static, Rate: 1}},
		{"rate0checks", Config{Mode: Static, Rate: 0, Checks: true}},
		{"rate0", Config{Mode: Collide, Rate: 0}},
	}
	hookRE := regexp.MustCompile(`racegenrt\.(\w+)\(`)
	var names []string
	for _, c := range cases {
		res, err := Package(pkg.Fset, pkg.Syntax, pkg.Types, pkg.TypesInfo, &c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 1 {
			t.Fatalf("%d files", len(res.Files))
		}
		for name, src := range res.Files {
			names = append(names, name)
			got := strings.ReplaceAll(string(src), filepath.Dir(name)+string(filepath.Separator), "")
			golden := name + "." + c.golden + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
					t.Fatal(err)
				}
			} else if want, err := os.ReadFile(golden); err != nil {
				t.Fatalf("%v (run go test -update)", err)
			} else if got != string(want) {
				t.Errorf("%s: rewritten output differs from %s:\n%s", c.golden, golden, got)
			}

			hooks := make(map[string]int)
			for _, m := range hookRE.FindAllStringSubmatch(got, -1) {
				hooks[m[1]]++
			}
			for _, h := range []string{"R", "W", "MapR", "MapW", "SliceR", "SliceW", "Append", "Copy"} {
				if hooks[h] > 0 {
					t.Errorf("%s: %d dynamic hooks %s in a static build", c.golden, hooks[h], h)
				}
			}
			for _, h := range []string{"Locked", "Unlocking", "GoFork"} {
				if hooks[h] == 0 {
					t.Errorf("%s: synchronization hook %s missing", c.golden, h)
				}
			}
			sampled := hooks["SR"] + hooks["SW"]
			if len(res.Sampled) != sampled {
				t.Errorf("%s: Result.Sampled has %d sites, output %d SR/SW", c.golden, len(res.Sampled), sampled)
			}
			switch c.golden {
			case "rate1":
				if hooks["SR"] == 0 || hooks["SW"] == 0 || hooks["CR"]+hooks["CW"] > 0 {
					t.Errorf("rate 1: hooks %v, want SR and SW only", hooks)
				}
				for _, s := range res.Sampled {
					if !regexp.MustCompile(`access\.go:\d+:\d+$`).MatchString(s) {
						t.Errorf("sampled site %q is not file:line:col", s)
					}
				}
			case "rate0checks":
				if hooks["CR"] == 0 || hooks["CW"] == 0 || sampled > 0 {
					t.Errorf("rate 0 with checks: hooks %v, want CR and CW only", hooks)
				}
			case "rate0":
				if hooks["CR"]+hooks["CW"]+sampled > 0 {
					t.Errorf("rate 0 without checks: hooks %v, want no access hooks", hooks)
				}
			}

			// Checks do not change what a sampled site gets.
			if c.golden == "rate1" {
				cfg := c.cfg
				cfg.Checks = true
				res2, err := Package(pkg.Fset, pkg.Syntax, pkg.Types, pkg.TypesInfo, &cfg)
				if err != nil {
					t.Fatal(err)
				}
				if string(res2.Files[name]) != string(src) {
					t.Errorf("rate 1 with checks differs from rate 1 without")
				}
			}
		}
	}
	// The rewrites must compile.
	for i, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			src, err := os.ReadFile(names[i] + "." + c.golden + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(tmp, "access.go")
			if err := os.WriteFile(out, src, 0o666); err != nil {
				t.Fatal(err)
			}
			overlay := writeOverlay(t, tmp, map[string]string{names[i]: out})
			goCmd(t, "build", "-overlay="+overlay, "./testdata/static/access")
		})
	}
}

// TestSiteChoice checks that the choice of sites is a function of its
// inputs and samples close to the rate.
func TestSiteChoice(t *testing.T) {
	if siteChoice(7, "p", "f.go", 10, 3, 0) != siteChoice(7, "p", "f.go", 10, 3, 0) {
		t.Fatal("siteChoice is not deterministic")
	}
	differ := 0
	for _, v := range []float64{
		siteChoice(8, "p", "f.go", 10, 3, 0),
		siteChoice(7, "q", "f.go", 10, 3, 0),
		siteChoice(7, "p", "g.go", 10, 3, 0),
		siteChoice(7, "p", "f.go", 11, 3, 0),
		siteChoice(7, "p", "f.go", 10, 4, 0),
		siteChoice(7, "p", "f.go", 10, 3, 1),
	} {
		if v != siteChoice(7, "p", "f.go", 10, 3, 0) {
			differ++
		}
	}
	if differ != 6 {
		t.Errorf("only %d of 6 changed inputs change the choice", differ)
	}

	// Sites as a package has them: many lines, a few columns each.
	for _, rate := range []float64{0.01, 0.1, 0.5} {
		for seed := int64(1); seed <= 3; seed++ {
			n, hit := 0, 0
			for line := 1; line <= 2000; line++ {
				for col := 2; col <= 20; col += 6 {
					n++
					u := siteChoice(seed, "example.com/p", "file.go", line, col, 0)
					if u < 0 || u >= 1 {
						t.Fatalf("siteChoice = %v, outside [0, 1)", u)
					}
					if u < rate {
						hit++
					}
				}
			}
			share := float64(hit) / float64(n)
			// Five standard deviations of a binomial share.
			if tol := 5 * math.Sqrt(rate*(1-rate)/float64(n)); math.Abs(share-rate) > tol {
				t.Errorf("rate %v seed %d: sampled share %.4f over %d sites, want within %.4f", rate, seed, share, n, tol)
			} else {
				t.Logf("rate %v seed %d: sampled share %.4f over %d sites", rate, seed, share, n)
			}
		}
	}
}

// TestStaticReproducible rewrites a package twice with one seed and once
// with another: the same seed samples the same sites.
func TestStaticReproducible(t *testing.T) {
	pkg := load(t, filepath.Join("testdata", "static", "access"))[0]
	sampled := func(seed int64) []string {
		res, err := Package(pkg.Fset, pkg.Syntax, pkg.Types, pkg.TypesInfo, &Config{Mode: Static, Rate: 0.5, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return res.Sampled
	}
	a, b := sampled(1), sampled(1)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("seed 1 sampled %v, then %v", a, b)
	}
	same := true
	for seed := int64(2); seed < 6 && same; seed++ {
		same = strings.Join(sampled(seed), ",") == strings.Join(a, ",")
	}
	if same {
		t.Errorf("seeds 1 to 5 all sample %v", a)
	}
	if _, err := Package(pkg.Fset, pkg.Syntax, pkg.Types, pkg.TypesInfo, &Config{Mode: Mode(len(Modes()))}); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

// TestSiteChoiceAcrossSeeds: one site is sampled by a share rate of the
// builds, over seeds. This is the per-build half of static mode's
// per-race guarantee (cmd/racegen's TestStaticClockRaceRate has the
// other): a race whose first access's site is sampled is found.
func TestSiteChoiceAcrossSeeds(t *testing.T) {
	const seeds = 20000
	sites := []struct {
		pkg, file      string
		line, col, ord int
	}{
		{"example.com/clock", "main.go", 14, 3, 0},
		{"example.com/clock", "main.go", 14, 3, 1},
		{"net/http", "server.go", 2000, 17, 0},
	}
	for _, rate := range []float64{0.01, 0.1, 0.3} {
		for _, s := range sites {
			hit := 0
			for seed := int64(1); seed <= seeds; seed++ {
				if siteChoice(seed, s.pkg, s.file, s.line, s.col, s.ord) < rate {
					hit++
				}
			}
			share := float64(hit) / seeds
			if tol := 5 * math.Sqrt(rate*(1-rate)/seeds); math.Abs(share-rate) > tol {
				t.Errorf("rate %v, %s %s:%d:%d #%d: sampled by %.4f of %d seeds, want within %.4f", rate, s.pkg, s.file, s.line, s.col, s.ord, share, seeds, tol)
			}
		}
	}
}
