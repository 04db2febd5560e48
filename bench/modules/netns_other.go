//go:build !linux

package main

import (
	"errors"
	"syscall"
)

// sysProcAttr returns the attributes of a command the harness runs: a
// process group of its own. Network namespaces are Linux's; probeNetNS
// refuses them elsewhere, so netns is never set here.
func sysProcAttr(netns bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

func loopbackUp() error {
	return errors.New("network namespaces are only available on Linux")
}
