// Package racegen holds the source of racegen's detector runtime, which
// the racegen command writes next to the instrumented packages of a build
// so that a user's module never has to depend on racegen.
//
// The command lives in cmd/racegen; the packages instrument, analysis and
// runtime hold the rewriter, the static analysis and the detector.
package racegen

import "embed"

// RuntimeFS holds the detector's source: the files of directory runtime,
// tests included (the command skips them).
//
//go:embed runtime/*.go runtime/*.s
var RuntimeFS embed.FS

// GoMod is racegen's go.mod, whose go line the runtime's module states
// too: racegen builds the runtime as a module of its own.
//
//go:embed go.mod
var GoMod []byte
