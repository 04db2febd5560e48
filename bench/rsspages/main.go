// Command rsspages runs a program and tells what its resident memory is
// made of: the peaks of its anonymous and file-backed resident set
// (RssAnon and RssFile of /proc/PID/status), and, for the program's own
// executable, how many kilobytes of each ELF section were resident at
// some point of the run. make bench reports peak RSS as getrusage's
// maxrss, which counts both kinds: an instrumented binary is larger, and
// the pages of its code and tables that the run touches count as much as
// its heap. This command separates them. Linux only.
//
// Usage:
//
//	go run ./bench/rsspages [-every 10ms] [-packages n] program [arguments]
//
// With -packages, the resident part of .text is also broken down by the
// package of the functions that lie in it, the n largest first: a page
// shared by several functions is divided among them by their bytes in it.
// Pages of an executable's mapping are resident in runs (the kernel maps
// the neighbours of a faulting page that are in the page cache), so the
// breakdown tells where the resident code lies, not what ran.
//
// The memory is sampled every -every, so a peak shorter than that can be
// missed; the sections' pages are read from /proc/PID/pagemap, which
// needs no privilege for the present bit. Sections are matched by their
// addresses, which holds for a position-dependent executable (what go
// build and go test -c make on linux/amd64 unless asked for PIE); the
// pages of a position-independent one show as "?".
package main

import (
	"bufio"
	"debug/elf"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	every := flag.Duration("every", 10*time.Millisecond, "sampling `interval`")
	packages := flag.Int("packages", 0, "break resident .text down by package, the `n` largest")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: rsspages [-every d] [-packages n] program [arguments]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Args(), *every, *packages, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "rsspages: %v\n", err)
		os.Exit(1)
	}
}

// run runs args, samples it every interval until it exits, and writes
// what it found to w, with the packages largest packages of its resident
// text if packages > 0.
func run(args []string, every time.Duration, packages int, w io.Writer) error {
	exe, err := exec.LookPath(args[0])
	if err != nil {
		return err
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return err
	}
	f, err := elf.Open(exe)
	if err != nil {
		return err
	}
	defer f.Close()
	secs := sections(f)
	var fns []function
	if packages > 0 {
		if fns, err = textFunctions(f); err != nil {
			return fmt.Errorf("reading the symbols of %s: %w", exe, err)
		}
	}
	cmd := exec.Command(exe, args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr // the report owns stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var s sampler
	s.exe, s.pages = exe, make(map[uint64]bool)
	tick := time.NewTicker(every)
	defer tick.Stop()
	var runErr error
loop:
	for {
		s.sample(cmd.Process.Pid) // a process that has just exited is skipped
		select {
		case runErr = <-done:
			break loop
		case <-tick.C:
		}
	}
	fmt.Fprintf(w, "peak RssAnon %d KiB, peak RssFile %d KiB (%d samples)\n", s.anon, s.file, s.n)
	fmt.Fprintf(w, "%s, resident pages by section:\n", filepath.Base(exe))
	bySec := make(map[string]uint64)
	var total uint64
	for addr := range s.pages {
		bySec[sectionOf(secs, addr)] += 4
		total += 4
	}
	names := make([]string, 0, len(bySec))
	for n := range bySec {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return bySec[names[i]] > bySec[names[j]] })
	for _, n := range names {
		fmt.Fprintf(w, "%8d KiB %s\n", bySec[n], n)
	}
	fmt.Fprintf(w, "%8d KiB total\n", total)
	if packages > 0 {
		if err := writePackages(w, exe, secs, fns, s.pages, packages); err != nil {
			return err
		}
	}
	var ee *exec.ExitError
	if errors.As(runErr, &ee) {
		fmt.Fprintf(w, "(the program exited with status %d)\n", ee.ExitCode())
		return nil
	}
	return runErr
}

// A section is an allocated ELF section of the executable.
type section struct {
	name       string
	addr, size uint64
}

// sections returns the executable's allocated sections.
func sections(f *elf.File) []section {
	var secs []section
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && s.Addr != 0 {
			secs = append(secs, section{s.Name, s.Addr, s.Size})
		}
	}
	return secs
}

// sectionOf names the section the page at addr overlaps first, or "?".
func sectionOf(secs []section, addr uint64) string {
	for _, s := range secs {
		if addr < s.addr+s.size && s.addr < addr+4096 {
			return s.name
		}
	}
	return "?"
}

// A sampler accumulates the peaks and the resident pages of the
// executable's mappings over the samples of one process.
type sampler struct {
	exe        string
	anon, file int64           // peaks, KiB
	pages      map[uint64]bool // resident pages of exe's mappings
	n          int
}

// sample reads the process's status and its mappings of the executable.
// A process that is gone has nothing to read, and is not an error.
func (s *sampler) sample(pid int) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return
	}
	s.n++
	for _, line := range strings.Split(string(status), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "RssAnon":
			s.anon = max(s.anon, n)
		case "RssFile":
			s.file = max(s.file, n)
		}
	}
	s.readPages(pid)
}

// readPages adds the resident pages of the process's mappings of the
// executable, by the present bit of /proc/PID/pagemap.
func (s *sampler) readPages(pid int) {
	maps, err := os.Open(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return
	}
	defer maps.Close()
	pm, err := os.Open(fmt.Sprintf("/proc/%d/pagemap", pid))
	if err != nil {
		return
	}
	defer pm.Close()
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[5] != s.exe {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		buf := make([]byte, (end-start)/4096*8)
		if _, err := pm.ReadAt(buf, int64(start/4096*8)); err != nil && err != io.EOF {
			continue
		}
		for i := 0; i+8 <= len(buf); i += 8 {
			if binary.LittleEndian.Uint64(buf[i:])>>63 != 0 {
				s.pages[start+uint64(i/8)*4096] = true
			}
		}
	}
}
