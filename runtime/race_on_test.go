//go:build race

package runtime_test

// raceEnabled reports whether the test runs under go test -race, which
// limits a process to 8128 live goroutines.
const raceEnabled = true
