package main

import (
	"fmt"
	"strings"
)

// goValueFlags are the flags of go build, go test and go run that take a
// value as the next argument when not written -flag=value. Knowing them
// tells package patterns apart from flag values.
var goValueFlags = map[string]bool{
	"C": true, "o": true, "p": true, "tags": true, "gcflags": true, "ldflags": true,
	"asmflags": true, "gccgoflags": true, "mod": true, "modfile": true, "overlay": true,
	"pkgdir": true, "toolexec": true, "exec": true, "buildmode": true, "compiler": true,
	"installsuffix": true, "covermode": true, "coverpkg": true, "pgo": true, "reldir": true,
	// go test, and the test binary flags it accepts.
	"run": true, "bench": true, "benchtime": true, "count": true, "cpu": true, "parallel": true,
	"timeout": true, "list": true, "skip": true, "fuzz": true, "fuzztime": true,
	"fuzzminimizetime": true, "shuffle": true, "coverprofile": true, "blockprofile": true,
	"blockprofilerate": true, "cpuprofile": true, "memprofile": true, "memprofilerate": true,
	"mutexprofile": true, "mutexprofilefraction": true, "outputdir": true, "trace": true,
	"vet": true, "json": false,
}

// goArgs is a go build, test or run command line, split.
type goArgs struct {
	flags    []string // flags before and between the package arguments, as written
	patterns []string // package patterns or .go files
	rest     []string // program arguments (run) or test binary arguments after -args
	tags     string   // value of -tags, which package loading must see too
	dir      string   // value of -C: where the go command runs
}

// splitGoArgs splits the arguments that follow a go subcommand. For run,
// the first non-flag argument (or the leading list of .go files) names the
// package and everything after it belongs to the program.
func splitGoArgs(sub string, args []string) (goArgs, error) {
	var g goArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-args" || a == "--" {
			g.rest = append(g.rest, args[i:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if sub == "run" && len(g.patterns) > 0 && !(strings.HasSuffix(a, ".go") && strings.HasSuffix(g.patterns[len(g.patterns)-1], ".go")) {
				g.rest = append(g.rest, args[i:]...)
				break
			}
			g.patterns = append(g.patterns, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "race":
			return g, fmt.Errorf("-race builds Go's own race detector; racegen replaces it")
		}
		// go test also takes test binary flags spelled -test.name.
		if goValueFlags[strings.TrimPrefix(name, "test.")] && !hasVal {
			if i+1 >= len(args) {
				return g, fmt.Errorf("flag -%s needs a value", name)
			}
			i++
			val = args[i]
			a += "=" + val
		}
		if name == "C" {
			// The go command wants -C first; runGo puts it there.
			g.dir = val
			continue
		}
		g.flags = append(g.flags, a)
		if name == "tags" {
			g.tags = val
		}
	}
	if len(g.patterns) == 0 {
		g.patterns = []string{"."}
	}
	return g, nil
}
