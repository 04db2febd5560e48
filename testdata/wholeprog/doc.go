// Package wholeprog is racegen's whole-program corpus: tests whose races,
// or whose synchronization, live inside the standard library, inside
// golang.org/x/sync, or inside example.com/dep, a local module that
// stands for a third-party library. A test named TestRace* must be
// reported as a race and one named TestNoRace* must not, as in Go's own
// race suite; in a TestRace* test, each line that a correct report must
// show ends in the comment "// race". See testdata/README.md.
package wholeprog
