package runtime

import (
	goruntime "runtime"
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
	t.creator()
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
	if opts.debugClocks {
		r.clocks = clockState(t, cf)
	}
	if p := slotOwner(cf.prev); p != nil {
		r.prev.goid = p.goid
		r.prev.g = describe(p)
	}
	writeReport(&r)
	races.Add(1)
	if opts.haltOnError {
		exit(opts.exitCode)
	}
	return true
}

type race struct {
	addr      uintptr
	cur, prev accessInfo
	// when is the wall-clock time of the report, in nanoseconds since
	// 1970 (UTC); writeReport sets it if it is 0.
	when int64
	// clocks is clockState's text, with the debug_clocks option.
	clocks string
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
	Func string
	File string
	Line int
	Off  uint64 // pc - entry, printed as +0x..
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
		createdBy: t.creatorLines(),
	}
}

// callers returns the current stack without the detector's frames.
func callers() []frame { return frames(callerPCs()) }

// callerPCs returns the current stack's PCs, for frames to resolve when a
// report needs them; frames leaves out the detector's own.
func callerPCs() []uintptr {
	var pcs [64]uintptr
	n := goruntime.Callers(1, pcs[:])
	return append([]uintptr(nil), pcs[:n]...)
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
		// the runtime's frames that start every goroutine; and, as
		// runtime.Callers does, the compiler's wrappers of go and defer
		// statements, which stacks taken by frame pointer (creators)
		// include.
		if f.Function != "" && !hasPrefix(f.Function, selfPrefix) &&
			f.Function != "runtime.goexit" && f.Function != "runtime.main" && !goWrapper(f.Function) {
			fs = append(fs, frame{Func: f.Function, File: f.File, Line: f.Line, Off: uint64(f.PC - f.Entry)})
		}
		if !more {
			break
		}
	}
	return fs
}

// goWrapper reports whether fn names a function the compiler made to call
// the function of a go or defer statement with its arguments
// (pkg.F.gowrap1, pkg.F.deferwrap2).
func goWrapper(fn string) bool {
	for _, w := range []string{".gowrap", ".deferwrap"} {
		if i := lastIndex(fn, w); i >= 0 && i+len(w) < len(fn) && allDigits(fn[i+len(w):]) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// prevFrames returns the frames that show the earlier access: its stack
// where the detector kept one (a watchpoint's first access), else its
// site, and whether they carry offsets (a stack's do).
func (r *race) prevFrames() ([]frame, bool) {
	if len(r.prev.stack) > 0 {
		return r.prev.stack, true
	}
	return r.siteFrame(), false
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
	if r.when == 0 {
		sec, nsec, _ := walltime()
		r.when = sec*1e9 + int64(nsec)
	}
	var b []byte
	if opts.json {
		b = appendJSON(b, r)
	} else {
		b = appendText(b, r)
	}
	writeOutput(b)
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

// lowerOp is op in lower case: "read", "write" or "read or write".
func lowerOp(op string) string { return string(op[0]-'A'+'a') + op[1:] }

func appendGoroutineName(b []byte, goid int64) []byte {
	switch goid {
	case 0:
		return append(b, "unknown goroutine"...)
	case 1:
		return append(b, "main goroutine"...)
	}
	return appendInt(append(b, "goroutine "...), goid)
}

func stripPath(file string) string {
	if p := opts.stripPathPrefix; p != "" && hasPrefix(file, p) {
		return file[len(p):]
	}
	return file
}

// appendAddr appends an address as go build -race prints it: 0x and at
// least 12 hexadecimal digits.
func appendAddr(b []byte, addr uintptr) []byte {
	return appendHex(append(b, "0x"...), uint64(addr), 12)
}

func appendFrames(b []byte, fs []frame, offsets bool) []byte {
	for _, f := range fs {
		b = append(b, "  "...)
		b = append(b, f.Func...)
		b = append(b, "()\n      "...)
		b = append(b, stripPath(f.File)...)
		b = appendInt(append(b, ':'), int64(f.Line))
		if offsets {
			b = appendHex(append(b, " +0x"...), f.Off, 0)
		}
		b = append(b, '\n')
	}
	return b
}

func appendText(b []byte, r *race) []byte {
	b = append(b, "==================\nWARNING: DATA RACE\n"...)
	b = append(b, r.cur.op()...)
	b = appendAddr(append(b, " at "...), r.addr)
	b = appendGoroutineName(append(b, " by "...), r.cur.goid)
	b = append(b, ":\n"...)
	b = appendFrames(b, r.cur.stack, true)
	b = append(b, "\nPrevious "...)
	b = append(b, lowerOp(opName(r.prev.write))...)
	b = appendAddr(append(b, " at "...), r.addr)
	b = appendGoroutineName(append(b, " by "...), r.prev.goid)
	b = append(b, ":\n"...)
	prev, offsets := r.prevFrames()
	b = appendFrames(b, prev, offsets)
	for _, g := range []goroutineInfo{r.cur.g, r.prev.g} {
		if g.goid <= 1 {
			continue
		}
		state := "running"
		if g.finished {
			state = "finished"
		}
		b = appendInt(append(b, "\nGoroutine "...), g.goid)
		b = append(b, " ("...)
		b = append(b, state...)
		b = append(b, ") created at:\n"...)
		if len(g.created) > 0 {
			b = appendFrames(b, g.created, true)
		} else if g.createdBy != "" {
			b = appendCreatedBy(b, g.createdBy)
		}
	}
	if r.clocks != "" {
		b = append(append(append(b, "\nClocks: "...), r.clocks...), '\n')
	}
	return append(b, "==================\n"...)
}

// appendCreatedBy formats the runtime's "created by f in goroutine N\n\tfile:line +0x.."
// lines in the report's frame layout.
func appendCreatedBy(b []byte, s string) []byte {
	lines := split(trimSpace(s), "\n")
	fn, _ := cutPrefix(lines[0], "created by ")
	if i := index(fn, " in goroutine"); i >= 0 {
		fn = fn[:i]
	}
	b = append(b, "  "...)
	b = append(b, fn...)
	b = append(b, "()\n"...)
	if len(lines) > 1 {
		b = append(b, "      "...)
		b = append(b, stripPath(trimSpace(lines[1]))...)
		b = append(b, '\n')
	}
	return b
}

// appendJSON appends r as one line of JSON, as encoding/json encodes
//
//	{"addr": "0x...", "time": T, "access": A, "previous": A}
//
// where T is the report's time in UTC, as encoding/json encodes a
// time.Time (RFC 3339 with nanoseconds), and
// A is {"op": "read", "goroutine": N, "stack": [{"func": F, "file": F, "line": N}, ...]}.
func appendJSON(b []byte, r *race) []byte {
	b = append(b, `{"addr":`...)
	b = appendJSONString(b, string(appendAddr(nil, r.addr)))
	b = append(b, `,"time":"`...)
	b = appendTime(b, r.when)
	b = append(b, `","access":`...)
	b = appendJSONAccess(b, lowerOp(r.cur.op()), r.cur.goid, r.cur.stack)
	b = append(b, `,"previous":`...)
	prev, _ := r.prevFrames()
	b = appendJSONAccess(b, lowerOp(opName(r.prev.write)), r.prev.goid, prev)
	return append(b, "}\n"...)
}

func appendJSONAccess(b []byte, op string, goid int64, stack []frame) []byte {
	b = append(b, `{"op":`...)
	b = appendJSONString(b, op)
	b = appendInt(append(b, `,"goroutine":`...), goid)
	b = append(b, `,"stack":[`...)
	for i, f := range stack {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"func":`...)
		b = appendJSONString(b, f.Func)
		b = append(b, `,"file":`...)
		b = appendJSONString(b, stripPath(f.File))
		b = appendInt(append(b, `,"line":`...), int64(f.Line))
		b = append(b, '}')
	}
	return append(b, "]}"...)
}
