//go:build linux && (amd64 || arm64)

package runtime

// openLogFile opens (creating it if need be) the log file base.PID for
// appending, as os.OpenFile with O_CREATE|O_WRONLY|O_APPEND and mode 0666
// would.
func openLogFile(base string) (uintptr, error) {
	name := base + "." + string(appendInt(nil, int64(sysGetpid())))
	fd, err := sysOpen(name, oCREAT|oWRONLY|oAPPEND, 0o666)
	if err != nil {
		return 0, err
	}
	return uintptr(fd), nil
}

// syncLogFile is (*os.File).Sync, errors ignored as they were.
func syncLogFile(fd uintptr) { sysFsync(int(fd)) }

// writeAgain reports whether a write that returned n failed for a reason
// that passes: a signal, or a descriptor in non-blocking mode that is not
// ready.
func writeAgain(n int32) bool { return n == -int32(eINTR) || n == -int32(eAGAIN) }

// readProfileFile returns the contents of the profile file name.
func readProfileFile(name string) ([]byte, error) { return readFile(name) }

// writeProfileFile writes b to the file base.PID, replacing it.
func writeProfileFile(base string, b []byte) error {
	name := base + "." + string(appendInt(nil, int64(sysGetpid())))
	fd, err := sysOpen(name, oCREAT|oWRONLY|oTRUNC, 0o666)
	if err != nil {
		return err
	}
	defer sysClose(fd)
	for len(b) > 0 {
		n, err := sysWrite(fd, b)
		if err == errno(eINTR) {
			continue
		}
		if err != nil {
			return wrap("write "+name, err)
		}
		b = b[n:]
	}
	return nil
}
