// Package runinfo records how a measurement of racegen was made, for the
// harnesses that write docs/bench.md, docs/eval-rate.md and
// docs/modules.md: the command line that reproduces it, the Go release,
// the machine and the racegen commit, and the raw results saved beside
// the report.
//
// The harnesses run from the root of the racegen module and say so in
// their reports; the helpers here are what they have in common, so that a
// report written by one reads like a report written by another.
package runinfo

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// RepoRoot returns the root of the racegen module, which must be the
// current directory's module.
func RepoRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("finding the racegen module: %w", err)
	}
	path, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if path != "github.com/racegen/racegen" {
		return "", fmt.Errorf("run from the racegen repository (current module is %q)", path)
	}
	return dir, nil
}

// CommandLine returns the shell command that reran this program, whose
// go run target is prog (such as "./bench/driver"), with its arguments.
func CommandLine(prog string) string {
	args := []string{"go run " + prog}
	for _, a := range os.Args[1:] {
		args = append(args, ShellQuote(a))
	}
	return strings.Join(args, " ")
}

// ShellQuote quotes s for a POSIX shell if it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=,:-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// GoVersion returns what go version prints.
func GoVersion() string {
	out, err := exec.Command("go", "version").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

// Machine describes the operating system, CPU, core count and memory.
func Machine() string {
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := ""
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(data), "MemTotal: %d kB", &kb); err == nil {
			mem = fmt.Sprintf(", %.0f GiB", float64(kb)/(1<<20))
		}
	}
	return fmt.Sprintf("%s/%s, %s, %d cores%s (shared with other jobs)", runtime.GOOS, runtime.GOARCH, cpu, runtime.NumCPU(), mem)
}

// SaveJSON writes v to path as indented JSON.
func SaveJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("saving results: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("saving results: %w", err)
	}
	return nil
}

// LoadJSON reads into v the JSON that SaveJSON wrote to path.
func LoadJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("loading results: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("loading results from %s: %w", path, err)
	}
	return nil
}

// RacegenState names the commit of the racegen repository at repo and
// whether its sources (cmd, runtime, instrument, analysis) have
// uncommitted changes. If bin is not empty, the racegen measured is the
// command bin rather than a build of repo, and the result says so.
func RacegenState(repo, bin string) string {
	if bin != "" {
		return "the command " + bin + " (-racegen); this checkout is at " + RacegenState(repo, "")
	}
	head, err := exec.Command("git", "-C", repo, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown commit"
	}
	s := "commit " + strings.TrimSpace(string(head))
	dirty, err := exec.Command("git", "-C", repo, "status", "--porcelain", "--", "cmd", "runtime", "instrument", "analysis").Output()
	if err == nil && len(strings.TrimSpace(string(dirty))) > 0 {
		s += " plus uncommitted changes in the working tree"
	}
	return s
}

// racegenSources are the paths of the repository that make up the racegen
// command and its runtime.
var racegenSources = []string{"cmd", "runtime", "instrument", "analysis", "embed.go", "go.mod", "go.sum"}

// SourcesCommit returns the short hash of the last commit at or before
// rev (such as HEAD) that changed racegen's sources (cmd, runtime,
// instrument, analysis, embed.go, go.mod, go.sum) in the repository at
// repo, or "" if git cannot tell. Two checkouts whose SourcesCommit
// agree build the same racegen, whatever else differs between them.
func SourcesCommit(repo, rev string) string {
	args := append([]string{"-C", repo, "log", "-1", "--format=%h", rev, "--"}, racegenSources...)
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Run runs name with args in dir, in the environment of the harnesses'
// builds (GOWORK=off, GOTOOLCHAIN=local) plus env, and returns its
// standard output; on failure the error carries the last lines of its
// standard error.
func Run(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local"), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %v: %s", filepath.Base(name), strings.Join(args, " "), err, LastLines(stderr.String(), 5))
	}
	return out, nil
}

// LastLines returns the last n lines of s, without surrounding space.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Racegen returns the racegen command that a harness measures: bin, the
// harness's -racegen flag, as an absolute path, or if bin is empty
// racegen built from the repository at repo into the directory dir.
func Racegen(repo, dir, bin string) (string, error) {
	if bin != "" {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "", fmt.Errorf("-racegen: %w", err)
		}
		return filepath.Abs(p)
	}
	p := filepath.Join(dir, "racegen")
	if _, err := Run(repo, nil, "go", "build", "-o", p, "./cmd/racegen"); err != nil {
		return "", fmt.Errorf("building racegen: %w", err)
	}
	return p, nil
}
