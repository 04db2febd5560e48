package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// The harness runs itself in two roles besides its own, chosen by its
// first argument:
//
//	modules -internal-netns CMD ARGS...
//	modules -internal-rusage LOG BINARY ARGS...
//
// The first, started in a new network namespace, brings the loopback
// interface up and executes CMD (the go command): module tests then reach
// nothing but this machine's loopback addresses, whatever hosts they
// name. The second is go test's -exec wrapper: it runs a test binary,
// passing its input, output and signals through, and appends what the
// binary cost (a binaryUsage) to LOG, so that the report can give the
// test binaries' peak memory apart from the compiler's and linker's.
const (
	netnsArg  = "-internal-netns"
	rusageArg = "-internal-rusage"
)

// internalMain runs the role args[0] names and returns its exit status;
// ok is false if args name no such role.
func internalMain(args []string) (status int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case netnsArg:
		if len(args) < 2 {
			fmt.Fprintf(os.Stderr, "modules %s: no command\n", netnsArg)
			return 2, true
		}
		return netnsMain(args[1:]), true
	case rusageArg:
		if len(args) < 3 {
			fmt.Fprintf(os.Stderr, "modules %s: want LOG BINARY [ARGS]\n", rusageArg)
			return 2, true
		}
		return rusageMain(args[1], args[2:]), true
	}
	return 0, false
}

// netnsMain brings up the loopback interface of the network namespace it
// runs in and replaces itself with args.
func netnsMain(args []string) int {
	if err := loopbackUp(); err != nil {
		fmt.Fprintf(os.Stderr, "modules: bringing up loopback in the test network namespace: %v\n", err)
		return 2
	}
	path, err := exec.LookPath(args[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "modules: %v\n", err)
		return 2
	}
	err = syscall.Exec(path, args, os.Environ())
	fmt.Fprintf(os.Stderr, "modules: executing %s: %v\n", path, err)
	return 2
}

// rusageMain runs a test binary and records its cost in logPath. It exits
// as the binary did, so that go test sees no difference.
func rusageMain(logPath string, args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	// go test stops a binary that outlives its -timeout with SIGQUIT,
	// for a goroutine dump; the binary must get it.
	signal.Notify(sigs, syscall.SIGQUIT, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "modules: %v\n", err)
		return 2
	}
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	signal.Stop(sigs)
	wall := time.Since(start).Seconds()
	if cmd.ProcessState == nil {
		fmt.Fprintf(os.Stderr, "modules: %v\n", err)
		return 2
	}
	dir, _ := os.Getwd()
	u := binaryUsage{Dir: dir, Wall: wall, Exit: cmd.ProcessState.ExitCode()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.RSS = ru.Maxrss * 1024
	}
	if err := appendJSONLine(logPath, u); err != nil {
		fmt.Fprintf(os.Stderr, "modules: recording the test binary's usage: %v\n", err)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		// Die of the same signal, as go test would have seen the binary do.
		signal.Reset(ws.Signal())
		syscall.Kill(os.Getpid(), ws.Signal())
		return 128 + int(ws.Signal())
	}
	return u.Exit
}

// appendJSONLine appends v to path as one line of JSON. Lines shorter
// than a page written with O_APPEND do not interleave, so test binaries
// running in parallel may share the file.
func appendJSONLine(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
