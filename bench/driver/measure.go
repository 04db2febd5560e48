package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// A run is one execution of a test binary.
type run struct {
	Rep    int     `json:"rep"`
	Wall   float64 `json:"wall"` // seconds, from start to exit
	RSS    int64   `json:"rss"`  // peak resident set size, bytes
	Status string  `json:"status"`
	Races  int     `json:"races,omitempty"` // race reports in the output
}

// Run statuses.
const (
	statusOK      = "ok"      // exited 0
	statusRaces   = "races"   // reported races (and so failed); still timed
	statusFail    = "fail"    // exited non-zero for another reason
	statusTimeout = "timeout" // killed at the time limit; Wall is a lower bound
)

// usable reports whether r's time and memory may enter a ratio.
func (r run) usable() bool { return r.Status != statusFail }

// measure runs the test binary bin for w in dir with the extra
// environment env, writing its output to logPath, and returns what it
// cost. A run longer than limit is killed.
func measure(w *workload, bin, dir string, env []string, logPath string, limit time.Duration) (run, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"-test.run=^$", "-test.bench="+w.Bench, "-test.benchtime="+w.Benchtime, "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	if werr := os.WriteFile(logPath, out.Bytes(), 0o644); werr != nil {
		return run{}, fmt.Errorf("writing run log: %w", werr)
	}
	r := run{Wall: wall, Status: statusOK, Races: bytes.Count(out.Bytes(), []byte("WARNING: DATA RACE"))}
	if cmd.ProcessState == nil {
		return run{}, fmt.Errorf("running %s: %w", bin, err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.RSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.Status = statusTimeout
		r.Wall = limit.Seconds()
	case err == nil:
	case errors.As(err, &ee) && r.Races > 0:
		r.Status = statusRaces
	case errors.As(err, &ee):
		r.Status = statusFail
	default:
		return run{}, fmt.Errorf("running %s: %w", bin, err)
	}
	return r, nil
}

// runEnv is the environment a configuration's binaries run with: -race
// must not sleep at exit, and racegen's options come from nowhere else.
func runEnv(c config) []string {
	switch c.Kind {
	case race:
		return []string{"GORACE=atexit_sleep_ms=0"}
	case racegen:
		return []string{"RACEGEN_OPTIONS="}
	}
	return nil
}
