package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary play the harness's internal roles, as the
// harness's own binary does when go test runs it through -exec.
func TestMain(m *testing.M) {
	if status, ok := internalMain(os.Args[1:]); ok {
		os.Exit(status)
	}
	if len(os.Args) > 1 && os.Args[1] == "-test-interfaces" {
		os.Exit(printInterfaces())
	}
	os.Exit(m.Run())
}

// printInterfaces prints each network interface and whether it is up,
// then dials a loopback listener, for TestNetNS.
func printInterfaces() int {
	ifs, err := net.Interfaces()
	if err != nil {
		fmt.Println(err)
		return 1
	}
	for _, i := range ifs {
		fmt.Println(i.Name, i.Flags&net.FlagUp != 0)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		fmt.Println(err)
		return 1
	}
	c.Close()
	fmt.Println("dialed loopback")
	return 0
}

func testRunner(t *testing.T, netns bool) *runner {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &runner{self: self, netns: netns, env: os.Environ(), grace: 100 * time.Millisecond}
}

func TestRusageWrapper(t *testing.T) {
	r := testRunner(t, false)
	dir := t.TempDir()
	log := filepath.Join(dir, "usage.jsonl")
	out := filepath.Join(dir, "out")
	inv := r.run(context.Background(), dir, []string{r.self, rusageArg, log, "/bin/sh", "-c", "echo hello; exit 3"}, time.Minute, out, out+".err")
	if inv.Exit != 3 || inv.Killed || inv.Err != "" {
		t.Errorf("wrapper run = %+v, want exit status 3 passed through", inv)
	}
	if data, _ := os.ReadFile(out); string(data) != "hello\n" {
		t.Errorf("output %q, want the binary's", data)
	}
	us, err := readUsage(log, dir)
	if err != nil || len(us) != 1 || us[0].Exit != 3 || us[0].Dir != "." || us[0].RSS <= 0 {
		t.Errorf("usage = %+v, %v; want one record of exit 3 in . with an RSS", us, err)
	}
}

// TestRunKillsProcessGroup checks that a run past its limit is killed
// with everything it started.
func TestRunKillsProcessGroup(t *testing.T) {
	r := testRunner(t, false)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := "sleep 60 & echo $! > " + pidFile + "; wait"
	start := time.Now()
	inv := r.run(context.Background(), dir, []string{"/bin/sh", "-c", script}, 200*time.Millisecond, filepath.Join(dir, "out"), filepath.Join(dir, "err"))
	if !inv.Killed || time.Since(start) > 20*time.Second {
		t.Fatalf("run = %+v after %v, want killed at the limit", inv, time.Since(start))
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for _, c := range strings.TrimSpace(string(data)) {
		pid = pid*10 + int(c-'0')
	}
	// The background sleep was in the group: it is gone (or a zombie
	// about to be reaped by init).
	deadline := time.Now().Add(5 * time.Second)
	for {
		stat, err := os.ReadFile("/proc/" + strings.TrimSpace(string(data)) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d the run started outlived the kill", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestNetNS checks that a command in the test network namespace has only
// the loopback interface, up and working.
func TestNetNS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("network namespaces are Linux's")
	}
	r := testRunner(t, true)
	if err := r.probeNetNS(); err != nil {
		t.Skipf("no network namespace here: %v", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	inv := r.run(context.Background(), dir, []string{r.self, "-test-interfaces"}, time.Minute, out, out+".err")
	data, _ := os.ReadFile(out)
	if want := "lo true\ndialed loopback\n"; inv.Exit != 0 || string(data) != want {
		errs, _ := os.ReadFile(out + ".err")
		t.Errorf("in the namespace: %q (exit %d, %s), want %q", data, inv.Exit, errs, want)
	}
}
