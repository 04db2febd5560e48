package runtime

// System call numbers of Linux on amd64 (asm/unistd_64.h).
const (
	nrRead          = 0
	nrWrite         = 1
	nrClose         = 3
	nrPoll          = 7
	nrMmap          = 9
	nrMunmap        = 11
	nrMadvise       = 28
	nrIoctl         = 16
	nrGetpid        = 39
	nrFsync         = 74
	nrGetdents64    = 217
	nrOpenat        = 257
	nrEventfd2      = 290
	nrPerfEventOpen = 298
)
