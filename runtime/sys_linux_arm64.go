package runtime

// System call numbers of Linux on arm64 (asm-generic/unistd.h).
const (
	nrIoctl         = 29
	nrOpenat        = 56
	nrClose         = 57
	nrGetdents64    = 61
	nrRead          = 63
	nrWrite         = 64
	nrFsync         = 82
	nrGetpid        = 172
	nrMunmap        = 215
	nrMadvise       = 233
	nrMmap          = 222
	nrEventfd2      = 19
	nrPerfEventOpen = 241
)
