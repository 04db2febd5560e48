package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// An invocation is one go test (or racegen test) command the harness ran.
type invocation struct {
	Args []string `json:"args"`
	Wall float64  `json:"wall"` // seconds, from start to exit
	// RSS is the peak resident set size of the command's process tree in
	// bytes: the go command, compilers, linker and test binaries, the
	// largest of them.
	RSS  int64 `json:"rss"`
	Exit int   `json:"exit"`
	// Killed is set when the run reached the harness's limit and its
	// process group was killed.
	Killed bool `json:"killed,omitempty"`
	// Err says why the command could not be run at all.
	Err string `json:"err,omitempty"`
	// Stdout and Stderr name the files that hold its output.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// A binaryUsage is what one test binary cost, as the -exec wrapper
// measured it (see rusageMain).
type binaryUsage struct {
	Dir  string  `json:"dir"` // the package directory the binary ran in
	Wall float64 `json:"wall"`
	RSS  int64   `json:"rss"`
	Exit int     `json:"exit"`
}

// A runner runs the harness's commands.
type runner struct {
	self  string // this program, for -exec and the network namespace
	netns bool   // run commands in a network namespace of their own
	env   []string
	// grace is how much longer than its go test -timeout the harness
	// lets a command run before killing it: go test's own timeout stops a
	// test binary with a goroutine dump, which says more than a kill.
	grace time.Duration
}

// defaultGrace is a runner's grace in the harness.
const defaultGrace = 2 * time.Minute

// run runs args in dir, with standard output to outPath and standard
// error to errPath, and kills its process group after limit plus
// r.grace.
func (r *runner) run(ctx context.Context, dir string, args []string, limit time.Duration, outPath, errPath string) invocation {
	inv := invocation{Args: args, Stdout: outPath, Stderr: errPath}
	stdout, err := os.Create(outPath)
	if err != nil {
		inv.Err = err.Error()
		return inv
	}
	defer stdout.Close()
	stderr, err := os.Create(errPath)
	if err != nil {
		inv.Err = err.Error()
		return inv
	}
	defer stderr.Close()

	ctx, cancel := context.WithTimeout(ctx, limit+r.grace)
	defer cancel()
	argv := args
	if r.netns {
		argv = append([]string{r.self, netnsArg}, args...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = r.env
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.SysProcAttr = sysProcAttr(r.netns)
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err = cmd.Run()
	inv.Wall = time.Since(start).Seconds()
	if cmd.Process != nil {
		// Test binaries and servers a test started may outlive the
		// command; none may outlive the run.
		killGroup(cmd.Process.Pid)
	}
	if cmd.ProcessState == nil {
		inv.Err = fmt.Sprintf("running %s: %v", args[0], err)
		return inv
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		inv.RSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	inv.Exit = cmd.ProcessState.ExitCode()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil && !errors.Is(context.Cause(ctx), context.Canceled):
		inv.Killed = true
	case err != nil && !errors.As(err, &ee):
		inv.Err = err.Error()
	}
	return inv
}

// killGroup kills the process group led by pid.
func killGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// execFlag returns the go test -exec flag that runs each test binary
// under this program's rusage wrapper, which appends a binaryUsage line to
// logPath.
func (r *runner) execFlag(logPath string) (string, error) {
	// go test splits -exec at spaces, honouring quotes; keep it simple.
	for _, s := range []string{r.self, logPath} {
		if strings.ContainsAny(s, " \t\n'\"") {
			return "", fmt.Errorf("path %q has spaces or quotes: it cannot go in go test -exec", s)
		}
	}
	return "-exec=" + r.self + " " + rusageArg + " " + logPath, nil
}

// readUsage reads the binaryUsage lines the wrapper wrote to path, with
// directories made relative to root. A missing file means no binary ran.
func readUsage(path, root string) ([]binaryUsage, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []binaryUsage
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var u binaryUsage
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			return out, fmt.Errorf("reading %s: %w", path, err)
		}
		if rel, err := filepath.Rel(root, u.Dir); err == nil {
			u.Dir = filepath.ToSlash(rel)
		}
		out = append(out, u)
	}
	return out, sc.Err()
}
