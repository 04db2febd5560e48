package main

import (
	"strings"

	"github.com/racegen/racegen/instrument"
)

// This file is the one place that decides which packages of a build
// racegen instruments, and how much. Every form of racegen (build, test,
// run, the printed flags and the -toolexec wrapper) compiles through the
// wrapper, which asks scopeOf for each compile.
//
// Like go build -race, racegen instruments every package it compiles,
// standard library and dependencies included, except those it cannot or
// must not:
//
//   - the detector runtime and everything it imports (its closure): an
//     instrumented package imports the runtime, so instrumenting one of
//     the runtime's own dependencies would make an import cycle. The
//     runtime is kept to runtime, sync, sync/atomic, unsafe, math,
//     math/bits, runtime/metrics and weak (and what they pull in; see
//     the runtime's closure_test.go) so that this costs next to nothing a
//     program can race on: the operations of sync and sync/atomic are
//     modelled wherever they are called, like channel operations;
//   - the Go runtime's own packages, which go build -race leaves alone
//     too (cmd/internal/objabi's runtimePkgs);
//   - functions marked //go:norace (see the instrumenter).
//
// The -accesspkg flag narrows access checking to the packages it names,
// in the style of -coverpkg: the other packages keep their
// synchronization, goroutine and annotation hooks, without which the
// detector would see false races, but their memory accesses get no hook.

// A scope is how much of a package racegen instruments.
type scope int

const (
	// scopeNone compiles the package as it is.
	scopeNone scope = iota
	// scopeSync instruments synchronization, goroutines and the
	// standard library's race annotations, but no memory access.
	scopeSync
	// scopeFull also instruments memory accesses.
	scopeFull
)

// goRuntimePackages are the Go runtime's packages, which go build -race
// does not instrument either ($GOROOT/src/cmd/internal/objabi/
// pkgspecial.go: runtimePkgs and extraNoInstrumentPkgs), with
// runtime/cgo, whose Go code runs on behalf of C callers. Most of them
// are also in the detector runtime's closure; the list keeps them out on
// every platform and Go release.
var goRuntimePackages = map[string]bool{
	"runtime":                 true,
	"runtime/race":            true,
	"runtime/msan":            true,
	"runtime/asan":            true,
	"runtime/cgo":             true,
	"internal/abi":            true,
	"internal/bytealg":        true,
	"internal/byteorder":      true,
	"internal/chacha8rand":    true,
	"internal/coverage/rtcov": true,
	"internal/cpu":            true,
	"internal/goarch":         true,
	"internal/godebugs":       true,
	"internal/goexperiment":   true,
	"internal/goos":           true,
	"internal/profilerecord":  true,
	"internal/strconv":        true,
	"internal/stringslite":    true,
	"unsafe":                  true,
	"C":                       true,
}

// isGoRuntimePackage reports whether path is one of the Go runtime's
// packages.
func isGoRuntimePackage(path string) bool {
	return goRuntimePackages[path] ||
		strings.HasPrefix(path, "internal/runtime/") ||
		strings.HasPrefix(path, "runtime/internal/")
}

// A policy decides the scope of each package of one build.
type policy struct {
	// closure holds the import paths of the detector runtime and of
	// every package it imports.
	closure map[string]bool
	// access, if not empty, lists the -accesspkg patterns: only the
	// packages they match get access hooks.
	access []string
}

// scopeOf returns the scope of the package with import path path, which
// may carry the go command's test-variant suffix ("p [p.test]"), and
// for scopes below scopeFull the reason, for -v. std says whether the
// package is in the standard library (the compile's -std flag).
func (p *policy) scopeOf(path string, std bool) (scope, string) {
	path = variantBase(path)
	switch {
	case p.closure[path] || path == instrument.RuntimePath || strings.HasPrefix(path, instrument.RuntimePath+"/"):
		return scopeNone, "the detector runtime's own dependency"
	case isGoRuntimePackage(path):
		return scopeNone, "a package of the Go runtime"
	case len(p.access) > 0 && !matchAny(p.access, path, std):
		return scopeSync, "not matched by -accesspkg: synchronization only"
	}
	return scopeFull, ""
}

// matchAny reports whether the import path matches one of patterns.
func matchAny(patterns []string, path string, std bool) bool {
	for _, pat := range patterns {
		if matchPattern(pat, path, std) {
			return true
		}
	}
	return false
}

// matchPattern reports whether the import path matches pattern, as the go
// command matches import path patterns: "..." matches any string,
// "p/..." also matches p itself, "std" matches the standard library and
// "all" everything. The suffixes the go command gives test variants
// ("_test", and "p.test" for a test's main package) match as p.
func matchPattern(pattern, path string, std bool) bool {
	switch pattern {
	case "all":
		return true
	case "std":
		return std
	}
	path = strings.TrimSuffix(strings.TrimSuffix(path, ".test"), "_test")
	if strings.HasSuffix(pattern, "/...") && path == strings.TrimSuffix(pattern, "/...") {
		return true
	}
	return matchWildcard(pattern, path)
}

// matchWildcard matches path against pattern, in which each "..." matches
// any string.
func matchWildcard(pattern, path string) bool {
	head, tail, wild := strings.Cut(pattern, "...")
	if !wild {
		return pattern == path
	}
	if !strings.HasPrefix(path, head) {
		return false
	}
	rest := path[len(head):]
	for i := 0; i <= len(rest); i++ {
		if matchWildcard(tail, rest[i:]) {
			return true
		}
	}
	return false
}
