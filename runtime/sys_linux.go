//go:build linux && (amd64 || arm64)

package runtime

import (
	goruntime "runtime"
	"unsafe"
)

// System calls on Linux, made directly (sys_linux_$GOARCH.s) rather than
// through package syscall (see format.go for why). The detector makes few:
// it opens its log file and the files under /proc and /sys it reads, maps
// memory, and drives the perf events of hardware watchpoints.

// rawSyscall6 makes system call num. It returns the call's result, or
// errno, non-zero, if the call failed. It does not tell the Go scheduler,
// so it is for calls that do not block.
//
//go:noescape
func rawSyscall6(num, a1, a2, a3, a4, a5, a6 uintptr) (r1, errno uintptr)

// entersyscallblock and exitsyscall bracket a system call that blocks,
// so that the scheduler runs other goroutines on the thread's P
// meanwhile. The Go runtime provides them under these names
// ($GOROOT/src/runtime/proc.go). entersyscallblock hands the P off at
// once, where entersyscall, which syscall.Syscall uses, leaves it to the
// runtime's monitor thread (sysmon) to take back after 20us: every time
// the watchpoint engine's loop went back to its poll, sysmon took the P
// and then woke every 20us for a millisecond or more, preempting the
// program's threads (fastcache's build at -seed=1: 1920 context switches
// in a run that makes 311 uninstrumented, and 1.3 processors busy of
// 1.8).
//
//go:linkname entersyscallblock runtime.entersyscallblock
func entersyscallblock()

//go:linkname exitsyscall runtime.exitsyscall
func exitsyscall()

// blockingSyscall6 is rawSyscall6 for a call that blocks. Like
// syscall.Syscall it must not grow the stack between entering and
// leaving the system call, nor be instrumented by go build -race, which
// needs a P. The caller keeps the memory its arguments point to alive.
//
//go:nosplit
//go:norace
func blockingSyscall6(num, a1, a2, a3, a4, a5, a6 uintptr) (r1, errno uintptr) {
	entersyscallblock()
	r1, errno = rawSyscall6(num, a1, a2, a3, a4, a5, a6)
	exitsyscall()
	return r1, errno
}

// An errno is the error number of a failed system call.
type errno uintptr

// Error numbers of Linux on amd64 and arm64 that the detector tests for
// or is likely to report.
const (
	ePERM      errno = 1
	eNOENT     errno = 2
	eSRCH      errno = 3
	eINTR      errno = 4
	eBADF      errno = 9
	eAGAIN     errno = 11
	eNOMEM     errno = 12
	eACCES     errno = 13
	eEXIST     errno = 17
	eNODEV     errno = 19
	eNOTDIR    errno = 20
	eISDIR     errno = 21
	eINVAL     errno = 22
	eMFILE     errno = 24
	eNOSPC     errno = 28
	eROFS      errno = 30
	eNOSYS     errno = 38
	eOPNOTSUPP errno = 95
)

// errnoText holds the messages package syscall gives the error numbers
// above.
var errnoText = map[errno]string{
	ePERM:      "operation not permitted",
	eNOENT:     "no such file or directory",
	eSRCH:      "no such process",
	eINTR:      "interrupted system call",
	eBADF:      "bad file descriptor",
	eAGAIN:     "resource temporarily unavailable",
	eNOMEM:     "cannot allocate memory",
	eACCES:     "permission denied",
	eEXIST:     "file exists",
	eNODEV:     "no such device",
	eNOTDIR:    "not a directory",
	eISDIR:     "is a directory",
	eINVAL:     "invalid argument",
	eMFILE:     "too many open files",
	eNOSPC:     "no space left on device",
	eROFS:      "read-only file system",
	eNOSYS:     "function not implemented",
	eOPNOTSUPP: "operation not supported",
}

func (e errno) Error() string {
	if s, ok := errnoText[e]; ok {
		return s
	}
	return "errno " + string(appendUint(nil, uint64(e)))
}

func errnoErr(e uintptr) error {
	if e == 0 {
		return nil
	}
	return errno(e)
}

// Flags of open(2), the same on amd64 and arm64.
const (
	oRDONLY  = 0x0
	oWRONLY  = 0x1
	oCREAT   = 0x40
	oAPPEND  = 0x400
	oTRUNC   = 0x200
	oCLOEXEC = 0x80000
	atFDCWD  = -100
)

// sysOpen opens the file name with flags (O_CLOEXEC is added) and, if it
// creates the file, permissions perm.
func sysOpen(name string, flags int, perm uint32) (int, error) {
	path := append([]byte(name), 0)
	dir := atFDCWD // relative to the working directory
	fd, e := rawSyscall6(nrOpenat, uintptr(dir), uintptr(unsafe.Pointer(&path[0])), uintptr(flags|oCLOEXEC), uintptr(perm), 0, 0)
	if e != 0 {
		return -1, wrap("open "+name, errno(e))
	}
	return int(fd), nil
}

func sysClose(fd int) { rawSyscall6(nrClose, uintptr(fd), 0, 0, 0, 0, 0) }

// sysRead reads into b from fd, which must not block for long (a file,
// an eventfd that is ready).
func sysRead(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, e := rawSyscall6(nrRead, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0, 0, 0)
	return int(n), errnoErr(e)
}

// sysWrite writes b to fd, which must not block for long.
func sysWrite(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, e := rawSyscall6(nrWrite, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0, 0, 0)
	return int(n), errnoErr(e)
}

// sysFsync flushes fd's data to its device; it may block.
func sysFsync(fd int) error {
	_, e := blockingSyscall6(nrFsync, uintptr(fd), 0, 0, 0, 0, 0)
	return errnoErr(e)
}

func sysGetpid() int {
	pid, _ := rawSyscall6(nrGetpid, 0, 0, 0, 0, 0, 0)
	return int(pid)
}

// Arguments of mmap(2).
const (
	protRead     = 0x1
	protWrite    = 0x2
	mapShared    = 0x1
	mapPrivate   = 0x2
	mapAnon      = 0x20
	mapNoReserve = 0x4000

	madvDontneed = 4 // advice of madvise(2)
)

// sysMmap maps length bytes of fd (or anonymous memory, for fd -1) and
// returns them as a slice.
func sysMmap(fd int, length uintptr, prot, flags int) ([]byte, error) {
	p, e := rawSyscall6(nrMmap, 0, length, uintptr(prot), uintptr(flags), uintptr(fd), 0)
	if e != 0 {
		return nil, wrap("mmap", errno(e))
	}
	// Through memory, as in loadWord: the mapping is not Go memory.
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), length), nil
}

func sysMunmap(b []byte) {
	rawSyscall6(nrMunmap, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), 0, 0, 0, 0)
}

func sysIoctl(fd int, req, arg uintptr) error {
	_, e := rawSyscall6(nrIoctl, uintptr(fd), req, arg, 0, 0, 0)
	return errnoErr(e)
}

// readFile returns the contents of the file name, which must be small
// and quick to read, as the files under /proc and /sys are.
func readFile(name string) ([]byte, error) {
	fd, err := sysOpen(name, oRDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer sysClose(fd)
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := sysRead(fd, buf)
		if err == errno(eINTR) {
			continue
		}
		if err != nil {
			return nil, wrap("read "+name, err)
		}
		if n == 0 {
			return b, nil
		}
		b = append(b, buf[:n]...)
	}
}

// readDirNames returns the names in the directory name, but . and ..
func readDirNames(name string) ([]string, error) {
	fd, err := sysOpen(name, oRDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer sysClose(fd)
	var names []string
	buf := make([]byte, 8192)
	for {
		n, e := rawSyscall6(nrGetdents64, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, 0, 0)
		goruntime.KeepAlive(buf)
		if errno(e) == eINTR {
			continue
		}
		if e != 0 {
			return nil, wrap("reading "+name, errno(e))
		}
		if n == 0 {
			return names, nil
		}
		// struct linux_dirent64: ino u64, off u64, reclen u16, type u8,
		// then the NUL-terminated name.
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
			if reclen < 19 || reclen > len(b) {
				break
			}
			nm := b[19:reclen]
			if i := index(string(nm), "\x00"); i >= 0 {
				nm = nm[:i]
			}
			if s := string(nm); s != "." && s != ".." {
				names = append(names, s)
			}
			b = b[reclen:]
		}
	}
}
