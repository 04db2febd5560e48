//go:build !(linux && (amd64 || arm64))

package runtime

import goruntime "runtime"

// Opening files needs system calls that the detector makes itself only on
// Linux (sys_linux.go); elsewhere log_path falls back to standard error,
// and openLog says so once.
func openLogFile(base string) (uintptr, error) {
	return 0, errorString("log_path is not supported on " + goruntime.GOOS + "/" + goruntime.GOARCH)
}

func syncLogFile(fd uintptr) {}

func writeAgain(n int32) bool { return false }

func readProfileFile(name string) ([]byte, error) {
	return nil, errorString("profile is not supported on " + goruntime.GOOS + "/" + goruntime.GOARCH)
}

func writeProfileFile(base string, b []byte) error {
	return errorString("profile_out is not supported on " + goruntime.GOOS + "/" + goruntime.GOARCH)
}
