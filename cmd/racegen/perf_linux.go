package main

import (
	"runtime"
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
// software watchpoints, and says so, if it cannot open them.
func hardwareWatchpoints() bool {
	if runtime.GOARCH != "amd64" {
		return false // the runtime's hardware engine is amd64-only
	}
	var word uint64
	attr := unix.PerfEventAttr{
		Type:    unix.PERF_TYPE_BREAKPOINT,
		Size:    uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
		Bits:    unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
		Bp_type: hwBreakpointW,
		Ext1:    uint64(uintptr(unsafe.Pointer(&word))),
		Ext2:    8,
	}
	fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	runtime.KeepAlive(&word)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}
