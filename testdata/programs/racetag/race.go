//go:build race

package main

import (
	"runtime"
	"unsafe"
)

// checkRead tells the race detector that b is read.
func checkRead(b []byte) {
	runtime.RaceReadRange(unsafe.Pointer(&b[0]), len(b)) // race
}
