package runtime

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
)

// Reports follow go build -race:
//
//	==================
//	WARNING: DATA RACE
//	Write at 0x00c000012345 by goroutine 7:
//	  main.main.func1()
//	      /src/main.go:12 +0x3c
//
//	Previous read at 0x00c000012345 by main goroutine:
//	  main.main()
//	      /src/main.go:15
//
//	Goroutine 7 (running) created at:
//	  main.main()
//	      /src/main.go:11 +0x2f
//	==================
//
// The current access has its full stack. The previous access has the
// position of its site: keeping a stack for every access would cost more
// than the sampling detectors are allowed to.

// reported holds the site pairs already reported: each distinct pair of
// sites is reported once.
var reported sync.Map // [2]uint64 -> struct{}

var out struct {
	mu sync.Mutex
	w  io.Writer
	f  *os.File
}

// reportRace reports a race between the current access and cf, unless the
// pair of sites was reported already or cf's history may describe an
// object that has since died. It reports whether it printed.
func reportRace(t *thread, addr, size uintptr, site uint64, write bool, cf conflict) bool {
	key := [2]uint64{min(site, cf.site), max(site, cf.site)}
	if _, dup := reported.Load(key); dup && opts.dedup {
		return false
	}
	if !cf.global && cf.gen != exactGen() {
		return false // a GC cycle ran since cf: its object may be gone
	}
	if _, dup := reported.LoadOrStore(key, struct{}{}); dup && opts.dedup {
		return false
	}
	r := race{
		addr: addr,
		cur: accessInfo{
			write: write,
			goid:  t.goid,
			stack: callers(),
		},
		prev: accessInfo{
			write: cf.write,
			site:  cf.site,
		},
	}
	r.cur.g = describe(t)
	if p := slotThread(cf.prev.tid()); p != nil && cf.prev.clock() >= p.start {
		r.prev.goid = p.goid
		r.prev.g = describe(p)
	}
	writeReport(&r)
	races.Add(1)
	if opts.haltOnError {
		flushLog()
		os.Exit(opts.exitCode)
	}
	return true
}

type race struct {
	addr      uintptr
	cur, prev accessInfo
}

type accessInfo struct {
	write bool
	// either is set when the access may have been a read or a write:
	// a hardware read/write watchpoint does not say which.
	either bool
	goid   int64 // 0 if unknown
	stack  []frame
	site   uint64
	g      goroutineInfo
}

type frame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
	Off  uint64 `json:"-"` // pc - entry, printed as +0x..
}

type goroutineInfo struct {
	goid      int64
	finished  bool
	created   []frame
	createdBy string // raw "created by" text for lazily seen goroutines
}

func describe(t *thread) goroutineInfo {
	return goroutineInfo{
		goid:      t.goid,
		finished:  t.finished.Load(),
		created:   frames(t.created),
		createdBy: t.createdBy,
	}
}

// callers returns the current stack without the detector's frames.
func callers() []frame {
	var pcs [64]uintptr
	n := goruntime.Callers(1, pcs[:])
	return frames(pcs[:n])
}

const selfPrefix = "github.com/racegen/racegen/runtime."

func frames(pcs []uintptr) []frame {
	if len(pcs) == 0 {
		return nil
	}
	var fs []frame
	it := goruntime.CallersFrames(pcs)
	for {
		f, more := it.Next()
		// Like go build -race, leave out the detector's own frames and
		// the runtime's frames that start every goroutine.
		if f.Function != "" && !strings.HasPrefix(f.Function, selfPrefix) &&
			f.Function != "runtime.goexit" && f.Function != "runtime.main" {
			fs = append(fs, frame{Func: f.Function, File: f.File, Line: f.Line, Off: uint64(f.PC - f.Entry)})
		}
		if !more {
			break
		}
	}
	return fs
}

func (r *race) siteFrame() []frame {
	pos, ok := sitePosition(r.prev.site)
	if !ok {
		return nil
	}
	fn := pos.Func
	if fn == "" {
		fn = "?"
	}
	return []frame{{Func: fn, File: pos.File, Line: pos.Line}}
}

func writeReport(r *race) {
	var b strings.Builder
	if opts.json {
		writeJSON(&b, r)
	} else {
		writeText(&b, r)
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.w == nil {
		out.w = openLog()
	}
	io.WriteString(out.w, b.String())
}

func openLog() io.Writer {
	switch opts.logPath {
	case "", "stderr":
		return os.Stderr
	case "stdout":
		return os.Stdout
	}
	name := opts.logPath + "." + strconv.Itoa(os.Getpid())
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o666)
	if err != nil {
		fmt.Fprintf(os.Stderr, "racegen: cannot open log_path: %v; reporting to stderr\n", err)
		return os.Stderr
	}
	out.f = f
	return f
}

// flushLog makes the reports written so far durable before an exit.
func flushLog() {
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.f != nil {
		out.f.Sync()
	}
}

// op names the access as in the report's first line.
func (a *accessInfo) op() string {
	if a.either {
		return "Read or write"
	}
	return opName(a.write)
}

func opName(write bool) string {
	if write {
		return "Write"
	}
	return "Read"
}

func goroutineName(goid int64) string {
	switch goid {
	case 0:
		return "unknown goroutine"
	case 1:
		return "main goroutine"
	}
	return "goroutine " + strconv.FormatInt(goid, 10)
}

func stripPath(file string) string {
	if p := opts.stripPathPrefix; p != "" {
		return strings.TrimPrefix(file, p)
	}
	return file
}

func writeFrames(b *strings.Builder, fs []frame, offsets bool) {
	for _, f := range fs {
		fmt.Fprintf(b, "  %s()\n      %s:%d", f.Func, stripPath(f.File), f.Line)
		if offsets {
			fmt.Fprintf(b, " +0x%x", f.Off)
		}
		b.WriteByte('\n')
	}
}

func writeText(b *strings.Builder, r *race) {
	b.WriteString("==================\nWARNING: DATA RACE\n")
	fmt.Fprintf(b, "%s at 0x%012x by %s:\n", r.cur.op(), r.addr, goroutineName(r.cur.goid))
	writeFrames(b, r.cur.stack, true)
	fmt.Fprintf(b, "\nPrevious %s at 0x%012x by %s:\n", strings.ToLower(opName(r.prev.write)), r.addr, goroutineName(r.prev.goid))
	writeFrames(b, r.siteFrame(), false)
	for _, g := range []goroutineInfo{r.cur.g, r.prev.g} {
		if g.goid <= 1 {
			continue
		}
		state := "running"
		if g.finished {
			state = "finished"
		}
		fmt.Fprintf(b, "\nGoroutine %d (%s) created at:\n", g.goid, state)
		if len(g.created) > 0 {
			writeFrames(b, g.created, true)
		} else if g.createdBy != "" {
			writeCreatedBy(b, g.createdBy)
		}
	}
	b.WriteString("==================\n")
}

// writeCreatedBy formats the runtime's "created by f in goroutine N\n\tfile:line +0x.."
// lines in the report's frame layout.
func writeCreatedBy(b *strings.Builder, s string) {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) == 0 {
		return
	}
	fn := strings.TrimPrefix(lines[0], "created by ")
	if i := strings.Index(fn, " in goroutine"); i >= 0 {
		fn = fn[:i]
	}
	fmt.Fprintf(b, "  %s()\n", fn)
	if len(lines) > 1 {
		fmt.Fprintf(b, "      %s\n", stripPath(strings.TrimSpace(lines[1])))
	}
}

type jsonAccess struct {
	Op        string  `json:"op"`
	Goroutine int64   `json:"goroutine"`
	Stack     []frame `json:"stack"`
}

type jsonRace struct {
	Addr     string     `json:"addr"`
	Access   jsonAccess `json:"access"`
	Previous jsonAccess `json:"previous"`
}

func writeJSON(b *strings.Builder, r *race) {
	strip := func(fs []frame) []frame {
		out := make([]frame, len(fs))
		for i, f := range fs {
			f.File = stripPath(f.File)
			out[i] = f
		}
		return out
	}
	j := jsonRace{
		Addr:     fmt.Sprintf("0x%012x", r.addr),
		Access:   jsonAccess{strings.ToLower(r.cur.op()), r.cur.goid, strip(r.cur.stack)},
		Previous: jsonAccess{strings.ToLower(opName(r.prev.write)), r.prev.goid, strip(r.siteFrame())},
	}
	enc := json.NewEncoder(b)
	enc.Encode(j) // cannot fail: plain strings and numbers into a Builder
}
