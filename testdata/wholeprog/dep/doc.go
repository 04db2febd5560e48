// Package dep stands for a third-party library in racegen's whole-program
// corpus (testdata/wholeprog). Its races and its synchronization live in
// its own code, which a detector sees only if it instruments dependencies
// as go build -race does: types that are not safe for concurrent use,
// goroutines it starts on its callers' behalf, channel operations it
// performs on its callers' channels, and a pool guarded by its own mutex.
package dep
