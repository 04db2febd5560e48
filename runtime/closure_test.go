package runtime_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The detector runtime's dependency closure: a package in it cannot be
// instrumented, as instrumented code imports the runtime. It is held to
// the packages below, which go build -race does not instrument either.
var (
	// directImports are the packages the runtime's files may import.
	directImports = []string{
		"runtime", "unsafe", "sync", "sync/atomic", "math/bits",
		"weak",            // syncvar.go: a synchronization object's death
		"runtime/metrics", // heap.go: the exact count of GC cycles
	}
	// closureOnly are the packages the closure may hold because a
	// package of directImports imports them.
	closureOnly = []string{
		"math", // imported by runtime/metrics
	}
)

// closureTargets are the platforms the closure is checked on: those with
// system calls of the runtime's own (linux/amd64, linux/arm64) and those
// without.
var closureTargets = []struct{ goos, goarch string }{
	{"linux", "amd64"},
	{"linux", "arm64"},
	{"darwin", "arm64"},
	{"windows", "amd64"},
}

// TestClosure checks the runtime's dependency closure on each target,
// leaving out the standard library's internal packages, which only the
// standard library can import.
func TestClosure(t *testing.T) {
	goCmd := goCommand(t)
	for _, tg := range closureTargets {
		t.Run(tg.goos+"_"+tg.goarch, func(t *testing.T) {
			graph := importGraph(t, goCmd, tg.goos, tg.goarch)
			for _, bad := range closureViolations(graph, self) {
				t.Errorf("%s/%s: the runtime depends on %s", tg.goos, tg.goarch, bad)
			}
		})
	}
}

// self is the runtime's import path.
const self = "github.com/racegen/racegen/runtime"

// importGraph returns the imports of every package in the closure of the
// package in the current directory, built for goos/goarch without cgo.
func importGraph(t *testing.T, goCmd, goos, goarch string) map[string][]string {
	t.Helper()
	cmd := exec.Command(goCmd, "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", ".")
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	outb, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, msg)
	}
	graph := make(map[string][]string)
	for _, line := range strings.Split(strings.TrimSpace(string(outb)), "\n") {
		f := strings.Fields(line)
		graph[f[0]] = f[1:]
	}
	if _, ok := graph[self]; !ok {
		t.Fatalf("go list did not list %s:\n%s", self, outb)
	}
	return graph
}

// closureViolations returns, for every package in the closure of root in
// graph that is neither internal nor allowed, the chain of imports from
// root that reaches it first ("root -> a -> b"), in order.
func closureViolations(graph map[string][]string, root string) []string {
	allowed := func(from, p string) bool {
		std := !strings.Contains(strings.Split(p, "/")[0], ".")
		if std && (strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/")) {
			return true // only the standard library can import these
		}
		if from == root {
			return slices.Contains(directImports, p)
		}
		return slices.Contains(directImports, p) || slices.Contains(closureOnly, p)
	}
	// Breadth first, so that each chain is a shortest one.
	parent := map[string]string{root: ""}
	queue := []string{root}
	var bad []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range graph[p] {
			if _, seen := parent[q]; seen {
				continue
			}
			parent[q] = p
			if !allowed(p, q) {
				chain := []string{q}
				for c := p; c != ""; c = parent[c] {
					chain = append(chain, c)
				}
				slices.Reverse(chain)
				bad = append(bad, strings.Join(chain, " -> "))
				continue // one chain per offender is enough
			}
			queue = append(queue, q)
		}
	}
	return bad
}

// TestClosureViolations checks the chains closureViolations names on a
// small graph.
func TestClosureViolations(t *testing.T) {
	graph := map[string][]string{
		self:              {"sync", "runtime/metrics", "strings", "math"},
		"sync":            {"internal/sync", "sync/atomic"},
		"runtime/metrics": {"math", "internal/godebugs"},
		"strings":         {"unicode", "internal/bytealg"},
		"unicode":         {},
	}
	got := closureViolations(graph, self)
	want := []string{
		self + " -> strings",
		self + " -> math", // allowed only through runtime/metrics
	}
	if !slices.Equal(got, want) {
		t.Errorf("closureViolations = %q, want %q", got, want)
	}
}
