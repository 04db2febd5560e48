package main

import (
	"encoding/binary"
	"runtime"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hwBreakpointW is HW_BREAKPOINT_W from linux/hw_breakpoint.h, which
// golang.org/x/sys/unix does not define.
const hwBreakpointW = 2

// hardwareWatchpoints reports whether this machine lets a process watch
// its own memory with perf_event_open breakpoints, which static builds use
// to catch the second access of a race without code at unsampled sites.
// The program that runs may be elsewhere; its runtime falls back to
// software watchpoints, and says so, if it cannot open them or they do
// not fire.
//
// Opening the event is not enough: some virtual machines accept and arm
// breakpoint events that never fire. So the event counts writes to a word
// while this goroutine writes it, locked to its thread, and the answer is
// whether the count moved.
func hardwareWatchpoints() bool {
	if runtime.GOARCH != "amd64" {
		return false // the runtime's hardware engine is amd64-only
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var word atomic.Uint64
	// A counting event (no sample period), enabled from the start.
	attr := unix.PerfEventAttr{
		Type:    unix.PERF_TYPE_BREAKPOINT,
		Size:    uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
		Bits:    unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
		Bp_type: hwBreakpointW,
		Ext1:    uint64(uintptr(unsafe.Pointer(&word))),
		Ext2:    8,
	}
	fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	word.Add(1)
	var count [8]byte
	if n, err := unix.Read(fd, count[:]); err != nil || n != len(count) {
		return false
	}
	return binary.NativeEndian.Uint64(count[:]) > 0
}
