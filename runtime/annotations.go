package runtime

import "unsafe"

// The standard library annotates, for go build -race, accesses the race
// detector cannot see by itself (package internal/race). The instrumenter
// turns most annotations into the hooks of the same meaning (Read,
// Acquire, ...); the two below keep the program counters the annotation
// passes, which -race uses for its reports, so that the rewritten code
// evaluates what the original did. racegen's site names the access.

// ReadPC is the standard library's race.ReadPC(addr, callerpc, pc): a
// read of the byte at addr.
func ReadPC(addr unsafe.Pointer, callerpc, pc uintptr, site uint64) { access(addr, 1, site, opRead) }

// WritePC is the standard library's race.WritePC(addr, callerpc, pc): a
// write of the byte at addr.
func WritePC(addr unsafe.Pointer, callerpc, pc uintptr, site uint64) { access(addr, 1, site, opWrite) }
