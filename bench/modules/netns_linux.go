package main

import (
	"os"
	"syscall"
	"unsafe"
)

// sysProcAttr returns the attributes of a command the harness runs: a
// process group of its own, so that the harness can kill everything the
// command started, and, if netns is set, a new network namespace, which
// has only a loopback interface (see netnsMain). Outside the initial
// user namespace's root, the namespace comes with a user namespace that
// maps the current user to root, which may create it.
func sysProcAttr(netns bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if !netns {
		return a
	}
	a.Cloneflags = syscall.CLONE_NEWNET
	if os.Geteuid() != 0 {
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
	}
	return a
}

// ifreqFlags is struct ifreq as SIOCGIFFLAGS and SIOCSIFFLAGS use it.
type ifreqFlags struct {
	Name  [syscall.IFNAMSIZ]byte
	Flags uint16
	_     [22]byte
}

// loopbackUp brings up the interface lo, as ip link set lo up does.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return os.NewSyscallError("socket", err)
	}
	defer syscall.Close(fd)
	var req ifreqFlags
	copy(req.Name[:], "lo")
	if err := ioctl(fd, syscall.SIOCGIFFLAGS, &req); err != nil {
		return os.NewSyscallError("ioctl SIOCGIFFLAGS", err)
	}
	req.Flags |= syscall.IFF_UP | syscall.IFF_RUNNING
	if err := ioctl(fd, syscall.SIOCSIFFLAGS, &req); err != nil {
		return os.NewSyscallError("ioctl SIOCSIFFLAGS", err)
	}
	return nil
}

func ioctl(fd int, req uintptr, arg *ifreqFlags) error {
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(unsafe.Pointer(arg)))
	if errno != 0 {
		return errno
	}
	return nil
}
