package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// objectFlags are the go build flags that change the object code of the
// standard library packages: toolexec mode builds the detector runtime
// and its standard dependencies in a go command of its own, whose
// archives are linked into the user's program next to the user build's
// archives of the same packages, so both builds must agree on them or the
// linker finds two versions of a package ("fingerprint mismatch").
var objectFlags = map[string]bool{
	"trimpath": true, "gcflags": true, "asmflags": true, "tags": true, "buildmode": true,
	"linkshared": true, "installsuffix": true, "msan": true, "asan": true, "race": true,
	"pgo": true,
}

// parentBuildFlags returns the flags of objectFlags that the go command
// running racegen as its -toolexec wrapper was given, in GOFLAGS or on
// its command line, as -name=value, GOFLAGS first so that the command
// line wins as it does in the go command. The command line is read from
// /proc; where there is none, only GOFLAGS is seen.
func parentBuildFlags() []string {
	flags := pickObjectFlags(splitQuoted(os.Getenv("GOFLAGS")), false)
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(os.Getppid()) + "/cmdline")
	if err != nil {
		return flags
	}
	argv := strings.Split(string(bytes.TrimRight(cmdline, "\x00")), "\x00")
	if len(argv) < 2 {
		return flags
	}
	return append(flags, pickObjectFlags(argv[2:], argv[1] == "run")...) // after "go build"
}

// pickObjectFlags returns the flags of objectFlags among the go command
// arguments args (those that follow the subcommand), as -name=value. For
// go run (run set), the arguments after the package are the program's.
func pickObjectFlags(args []string, run bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-args" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			if run {
				break
			}
			continue // a package pattern; go test takes flags after them too
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasVal && goValueFlags[strings.TrimPrefix(name, "test.")] {
			if i+1 >= len(args) {
				break
			}
			i++
			val, hasVal = args[i], true
		}
		if !objectFlags[name] {
			continue
		}
		if !hasVal {
			val = "true" // a boolean flag
		}
		out = append(out, "-"+name+"="+val)
	}
	return out
}

// splitQuoted splits GOFLAGS as the go command does: into fields
// separated by spaces, a field may be quoted whole with ' or ", with no
// escapes inside. An unterminated quote ends the last field (the go
// command itself refuses such a GOFLAGS before running any tool).
func splitQuoted(s string) []string {
	var f []string
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return f
		}
		if q := s[0]; q == '"' || q == '\'' {
			field, rest, _ := strings.Cut(s[1:], string(q))
			f, s = append(f, field), rest
			continue
		}
		i := strings.IndexAny(s, " \t\n\r")
		if i < 0 {
			i = len(s)
		}
		f, s = append(f, s[:i]), s[i:]
	}
}
