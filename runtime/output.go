package runtime

import (
	"sync"
	"unsafe"
)

// Reports go to standard error, or where the option log_path says:
// standard output, or the file PATH.PID, opened when the first report is
// written. Writes go through the Go runtime's own write, which every
// platform has, rather than package os (see format.go for why).

var out struct {
	mu     sync.Mutex
	opened bool
	fd     uintptr      // where reports go: 2, 1 or the log file
	file   bool         // fd is a log file the detector opened
	hook   func([]byte) // set by tests: reports go there instead
}

// runtimeWrite writes n bytes at p to the file descriptor fd (on Windows,
// 1 and 2 are standard output and error) and returns the number written,
// or a negative number on error. The Go runtime provides it to other
// packages under this name ($GOROOT/src/runtime/linkname.go).
//
//go:linkname runtimeWrite runtime.write
func runtimeWrite(fd uintptr, p unsafe.Pointer, n int32) int32

// writeFD writes all of b to fd. It retries a write that failed for a
// reason that passes (writeAgain) for up to about a second; other errors
// lose the rest of b, as there is nowhere to report them.
func writeFD(fd uintptr, b []byte) {
	for tries := 0; len(b) > 0 && tries < 1000; {
		n := runtimeWrite(fd, unsafe.Pointer(&b[0]), int32(min(len(b), 1<<30)))
		switch {
		case n > 0:
			b = b[n:]
			tries = 0
		case writeAgain(n):
			tries++
			sleep(millisecond)
		default:
			return
		}
	}
}

// printStderr writes a message of the detector's own to standard error.
func printStderr(msg string) { writeFD(2, []byte(msg)) }

// writeOutput writes a report where reports go.
func writeOutput(b []byte) {
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.hook != nil {
		out.hook(b)
		return
	}
	if !out.opened {
		out.fd, out.file = openLog()
		out.opened = true
	}
	writeFD(out.fd, b)
}

// openLog returns the descriptor reports go to, and whether it is a log
// file the detector opened.
func openLog() (fd uintptr, file bool) {
	switch opts.logPath {
	case "", "stderr":
		return 2, false
	case "stdout":
		return 1, false
	}
	fd, err := openLogFile(opts.logPath)
	if err != nil {
		printStderr("racegen: cannot open log_path: " + err.Error() + "; reporting to stderr\n")
		return 2, false
	}
	return fd, true
}

// flushLog makes the reports written so far durable before an exit.
func flushLog() {
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.file {
		syncLogFile(out.fd)
	}
}
