package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/racegen/racegen/analysis"
	"github.com/racegen/racegen/instrument"
	"golang.org/x/tools/go/packages"
)

// racegenModule is the module path of racegen, which the instrumented code
// imports the detector runtime from.
const racegenModule = "github.com/racegen/racegen"

// An output is an instrumented build on disk.
type output struct {
	overlay string // overlay.json for go build -overlay
	modfile string // go.mod for -modfile, empty inside racegen's own module
	modMod  bool   // the module vendors its dependencies: add -mod=mod
}

// goFlags returns the go command flags that build the instrumented code.
func (o *output) goFlags() []string {
	flags := []string{"-overlay=" + o.overlay}
	if o.modfile != "" {
		flags = append(flags, "-modfile="+o.modfile)
	}
	if o.modMod {
		flags = append(flags, "-mod=mod")
	}
	return flags
}

func joinFlags(flags []string) string { return strings.Join(flags, " ") }

// instrumentBuild instruments the main-module packages of the build that
// go sub would run with g, reusing an earlier result when nothing it
// depends on changed.
func instrumentBuild(cfg *config, sub string, g goArgs, stderr io.Writer) (*output, error) {
	if err := checkWorkspace(g.dir); err != nil {
		return nil, err
	}
	if err := checkExperiments(g.dir); err != nil {
		return nil, err
	}
	pkgs, mod, err := mainPackages(sub, g)
	if err != nil {
		return nil, err
	}
	if mod.GoMod == "" {
		return nil, fmt.Errorf("module %s has no go.mod file", mod.Path)
	}
	gomod, err := os.ReadFile(mod.GoMod)
	if err != nil {
		return nil, err
	}
	if mod.Path != racegenModule && strings.Contains(string(gomod), racegenModule) {
		return nil, fmt.Errorf("%s mentions %s; racegen adds its runtime itself and works only on modules that do not", mod.GoMod, racegenModule)
	}
	key, err := buildKey(cfg, g, pkgs, mod)
	if err != nil {
		return nil, err
	}
	root, err := outRoot(cfg)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, key)
	out := &output{overlay: filepath.Join(dir, "overlay.json")}
	if mod.Path != racegenModule {
		out.modfile = filepath.Join(dir, "go.mod")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(mod.GoMod), "vendor", "modules.txt")); err == nil {
		out.modMod = true
	}
	if _, err := os.Stat(filepath.Join(dir, doneFile)); err == nil {
		if cfg.verbose {
			fmt.Fprintf(stderr, "racegen: sources unchanged; reusing %s\n", dir)
		}
		return out, nil
	}

	tmp, err := os.MkdirTemp(root, key+".tmp")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // after a successful rename there is nothing left
	if err := writeBuild(cfg, sub, g, pkgs, mod, gomod, tmp, dir, stderr); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, doneFile)); serr == nil {
			return out, nil // a concurrent racegen produced the same result
		}
		return nil, fmt.Errorf("publishing %s: %w", dir, err)
	}
	return out, nil
}

// doneFile marks a complete output directory.
const doneFile = "done"

// writeBuild instruments pkgs into tmp, which will be renamed to dir: the
// paths written into overlay.json and go.mod already name dir.
func writeBuild(cfg *config, sub string, g goArgs, pkgs []*packages.Package, mod *packages.Module, gomod []byte, tmp, dir string, stderr io.Writer) error {
	var todo []*packages.Package
	for _, p := range pkgs {
		if usesCgo(p) {
			if cfg.verbose {
				fmt.Fprintf(stderr, "racegen: %s: uses cgo; not instrumented\n", p.PkgPath)
			}
			continue
		}
		todo = append(todo, p)
	}
	replace := map[string]string{}
	var total stats
	if len(todo) > 0 {
		loaded, err := loadSyntax(sub, g, todo)
		if err != nil {
			return err
		}
		for i, p := range loaded {
			st, err := instrumentPackage(cfg, p, filepath.Join(tmp, "src", fmt.Sprint(i)), filepath.Join(dir, "src", fmt.Sprint(i)), replace)
			if err != nil {
				return err
			}
			if cfg.verbose {
				if cfg.mode != "dynamic" {
					for _, s := range st.sampledSites {
						fmt.Fprintf(stderr, "racegen: sampled %s\n", s)
					}
				}
				fmt.Fprintf(stderr, "racegen: %s: %s\n", p.ID, st)
			}
			total.add(st)
		}
	}
	if cfg.verbose {
		fmt.Fprintf(stderr, "racegen: %d packages: %s\n", len(todo), total)
	}
	config := runtimeConfig(cfg)
	if mod.Path != racegenModule {
		if err := writeModule(mod, gomod, tmp, dir); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, "rt", "runtime", "config.go"), config, 0o666); err != nil {
			return err
		}
	} else {
		// Inside racegen's own module the runtime is compiled from the
		// module's source; its configuration comes through the overlay.
		if err := os.WriteFile(filepath.Join(tmp, "config.go"), config, 0o666); err != nil {
			return err
		}
		replace[filepath.Join(filepath.Dir(mod.GoMod), "runtime", "config.go")] = filepath.Join(dir, "config.go")
	}
	ov, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "overlay.json"), ov, 0o666); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(tmp, doneFile), nil, 0o666)
}

// runtimeConfig returns the source of the runtime's config.go for cfg: the
// build's sampling rate, mode and watchpoint time limit (RACEGEN_OPTIONS
// can override the rate and the limit).
func runtimeConfig(cfg *config) []byte {
	return []byte(fmt.Sprintf(`// Code generated by racegen; DO NOT EDIT.

package runtime

// buildRate is the sampling rate racegen -rate built this program with.
const buildRate = %s

// buildMode is the detector racegen -mode built this program for.
const buildMode = %q

// buildWatch is the time limit of a watchpoint in nanoseconds (racegen
// -watch).
const buildWatch = %d
`, strconv.FormatFloat(cfg.rate, 'g', -1, 64), cfg.mode, int64(cfg.watch)))
}

// stats counts access sites.
type stats struct {
	sites, dropped int
	static         bool     // built for static or collide mode
	checks         bool     // unsampled sites got software checks, counted in sites
	sampledSites   []string // the sites sampled at build time, in static builds
	unsampled      int      // the sites not sampled, in static builds
}

func (s *stats) add(t stats) {
	s.sites += t.sites
	s.dropped += t.dropped
	s.static = s.static || t.static
	s.checks = s.checks || t.checks
	s.sampledSites = append(s.sampledSites, t.sampledSites...)
	s.unsampled += t.unsampled
}

func (s stats) String() string {
	all := s.sites + s.dropped
	if s.static && !s.checks {
		all += s.unsampled // they got no code, so are not in sites
	}
	pct := 0.0
	if all > 0 {
		pct = 100 * float64(s.dropped) / float64(all)
	}
	msg := fmt.Sprintf("%d access sites, %d hooked, %d (%.1f%%) dropped as goroutine-local", all, s.sites, s.dropped, pct)
	if s.static {
		n := len(s.sampledSites) + s.unsampled
		share := 0.0
		if n > 0 {
			share = 100 * float64(len(s.sampledSites)) / float64(n)
		}
		msg += fmt.Sprintf(", %d of %d (%.1f%%) sampled", len(s.sampledSites), n, share)
	}
	return msg
}

// instrumentPackage rewrites p into tmpDir and records in replace where
// each original file's replacement will live once tmpDir becomes dir.
func instrumentPackage(cfg *config, p *packages.Package, tmpDir, dir string, replace map[string]string) (stats, error) {
	// Dependencies outside the main module are not instrumented: the
	// instrumenter treats calls into them as synchronizing.
	module := ""
	if p.Module != nil {
		module = p.Module.Path
	}
	res, err := rewritePackage(cfg, p.ID, p.Fset, p.Syntax, p.Types, p.TypesInfo, module)
	if err != nil {
		return stats{}, err
	}
	if err := os.MkdirAll(tmpDir, 0o777); err != nil {
		return stats{}, err
	}
	for orig, src := range res.Files {
		name := filepath.Base(orig)
		if err := os.WriteFile(filepath.Join(tmpDir, name), src, 0o666); err != nil {
			return stats{}, err
		}
		replace[orig] = filepath.Join(dir, name)
	}
	return resultStats(cfg, res), nil
}

// rewritePackage runs racegen's analysis and instrumenter on one
// type-checked package of module, as every form of racegen does; id names
// the package in errors.
func rewritePackage(cfg *config, id string, fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, module string) (*instrument.Result, error) {
	loc, err := analysis.Package(fset, files, pkg, info)
	if err != nil {
		return nil, fmt.Errorf("analysing %s: %w", id, err)
	}
	return instrument.Package(fset, files, pkg, info, &instrument.Config{
		Local:       loc.Local,
		LocalTarget: loc.LocalTarget,
		Mode:        cfg.mode,
		Rate:        cfg.rate,
		Seed:        cfg.seed,
		// Without hardware watchpoints the second access of a race
		// is caught only by a check at the unsampled sites.
		Checks: cfg.watchpoints == "sw",
		Module: module,
	})
}

// resultStats counts the access sites of one rewritten package.
func resultStats(cfg *config, res *instrument.Result) stats {
	return stats{
		sites:        res.Sites,
		dropped:      res.Dropped,
		static:       cfg.mode != "dynamic",
		checks:       cfg.watchpoints == "sw",
		sampledSites: res.Sampled,
		unsampled:    res.Unsampled,
	}
}
