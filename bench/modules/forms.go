package main

import (
	"fmt"
	"strings"
)

// A form is one way of running a module's tests: go test itself, its
// race detector, or racegen in one of its forms.
type form struct {
	Name  string // key in results and -forms
	Label string // column heading
	// Racegen is set for racegen's forms, whose races are compared with
	// -race's.
	Racegen bool
	// Rate is racegen's sampling rate.
	Rate string
	// Toolexec selects go test -toolexec='racegen toolexec' over
	// racegen test.
	Toolexec bool
	// Race selects go test -race.
	Race bool
}

// Form names.
const (
	formGo       = "go"
	formRace     = "race"
	formFull     = "full"
	formToolexec = "toolexec"
	formSampled  = "rate0.01"
)

// forms lists every form, in report order. formGo comes first: the
// others are compared with it.
var forms = []form{
	{Name: formGo, Label: "go test"},
	{Name: formRace, Label: "go test -race", Race: true},
	{Name: formFull, Label: "racegen test", Racegen: true, Rate: "1"},
	{Name: formToolexec, Label: "-toolexec", Racegen: true, Rate: "1", Toolexec: true},
	{Name: formSampled, Label: "racegen -rate=0.01", Racegen: true, Rate: "0.01"},
}

// formNamed returns the form called name.
func formNamed(name string) (form, bool) {
	for _, f := range forms {
		if f.Name == name {
			return f, true
		}
	}
	return form{}, false
}

// parseForms parses a comma-separated list of form names, which must
// include formGo, and returns them in report order.
func parseForms(s string) ([]string, error) {
	want := map[string]bool{}
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, ok := formNamed(name); !ok {
			var all []string
			for _, f := range forms {
				all = append(all, f.Name)
			}
			return nil, fmt.Errorf("unknown form %q: want some of %s", name, strings.Join(all, ", "))
		}
		want[name] = true
	}
	if !want[formGo] {
		return nil, fmt.Errorf("the forms must include %s, the baseline", formGo)
	}
	var out []string
	for _, f := range forms {
		if want[f.Name] {
			out = append(out, f.Name)
		}
	}
	return out, nil
}

// command returns the command line that runs f with the go test
// arguments args (flags and packages), using the racegen command
// racegen.
func (f form) command(racegen string, args []string) []string {
	switch {
	case f.Race:
		return append([]string{"go", "test", "-race"}, args...)
	case f.Toolexec:
		return append([]string{"go", "test", "-toolexec=" + racegen + " -rate=" + f.Rate + " toolexec"}, args...)
	case f.Racegen:
		return append([]string{racegen, "-rate=" + f.Rate, "test"}, args...)
	}
	return append([]string{"go", "test"}, args...)
}

// runEnv is the environment every test run gets on top of the harness's
// own, with the variables it replaces removed. It makes runs
// reproducible and offline: the module copy's dependencies were
// downloaded when it was prepared, so GOPROXY=off, and any download a run
// would need is an error rather than a change. -race does not sleep at
// exit (as in make bench), and racegen's options come from nowhere else.
var runEnv = []string{
	"GOFLAGS=-mod=readonly",
	"GOWORK=off",
	"GOTOOLCHAIN=local",
	"GOPROXY=off",
	"GORACE=atexit_sleep_ms=0",
	"RACEGEN_OPTIONS=",
}

// withEnv returns env with the variables of set replacing any of the
// same names.
func withEnv(env, set []string) []string {
	names := map[string]bool{}
	for _, kv := range set {
		k, _, _ := strings.Cut(kv, "=")
		names[k] = true
	}
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !names[k] {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}
