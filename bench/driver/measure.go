package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	// Benchmarks counts the benchmark result lines (ns/op) in the output.
	// A benchmark that failed, as one does when a detector reports a race
	// in it, prints none; if that happened in its first, one-iteration
	// run, it never ran its N iterations.
	Benchmarks int `json:"benchmarks"`
	// SoftWatch is set when a static or collide build said at start-up
	// that it fell back to software watchpoints.
	SoftWatch bool `json:"soft_watch,omitempty"`
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

// incomplete reports whether r finished fewer benchmarks than the
// baseline run b: its time does not measure the same work. A run that
// timed out is not incomplete; its time is a lower bound.
func (r run) incomplete(b run) bool {
	return r.Status != statusTimeout && r.Benchmarks < b.Benchmarks
}

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
	r := run{
		Wall: wall, Status: statusOK,
		Races:      bytes.Count(out.Bytes(), []byte("WARNING: DATA RACE")),
		Benchmarks: countBenchmarks(out.Bytes()),
		SoftWatch:  bytes.Contains(out.Bytes(), []byte("racegen: hardware watchpoints unavailable")),
	}
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

// countBenchmarks counts the benchmark result lines in a test binary's
// output.
func countBenchmarks(out []byte) int {
	n := 0
	for line := range bytes.Lines(out) {
		if bytes.HasPrefix(line, []byte("Benchmark")) && bytes.Contains(line, []byte(" ns/op")) {
			n++
		}
	}
	return n
}

// recountBenchmarks fills in the benchmark counts of runs saved before
// runs recorded them, from the run logs in dir, if they are there.
func recountBenchmarks(rs *results, dir string) {
	for _, c := range rs.Cells {
		for i := range c.Runs {
			r := &c.Runs[i]
			if r.Benchmarks != 0 {
				continue
			}
			out, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%s.%s.%d.txt", c.Workload, c.Config, r.Rep)))
			if err == nil {
				r.Benchmarks = countBenchmarks(out)
			}
		}
	}
}
