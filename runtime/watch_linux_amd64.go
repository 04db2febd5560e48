//go:build linux && amd64

package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Hardware watchpoints are perf_event breakpoints (PERF_TYPE_BREAKPOINT),
// one event per watchpoint slot per thread and CPU:
//
//   - Every thread must carry the events, including threads the Go
//     runtime creates later. inherit=1 copies an event into the threads
//     its thread clones from then on, so events are opened on each thread
//     listed in /proc/self/task (until the list stops growing; a thread
//     that already inherited the events refuses more with ENOSPC), and
//     later threads inherit them.
//   - The kernel refuses to mmap an inherited per-thread event (cpu=-1),
//     but not a per-thread, per-CPU one, and per-CPU events may share one
//     ring buffer (PERF_EVENT_IOC_SET_OUTPUT). So events are opened for
//     each (slot, thread, CPU), and each CPU has one ring buffer; inherited
//     events write into their parent's buffer.
//   - Each event samples every access (sample_period=1) with its IP, the
//     user call chain (Go keeps frame pointers), the time on
//     CLOCK_MONOTONIC (the clock of the Go runtime's nanotime), the
//     event id (which names the slot) and the user registers SP and R14.
//     On amd64 Go code keeps the current g in R14: that names the
//     goroutine that made the access, and SP, checked against that g's
//     stack bounds, confirms it.
//   - Arming re-aims a slot's events with PERF_EVENT_IOC_MODIFY_ATTRIBUTES
//     (which the kernel applies to the inherited copies too); disarming
//     sets disabled=1 the same way.
//
// A detector goroutine polls the ring buffers and decides each sample
// after the fact. The owner's clock condition is decided from times, not
// from the clock's value when the sample is read: the owner stamps its
// watchpoints with the time of its first synchronization after arming
// (changedAt), and a sample counts only if it was taken before that, so
// the verdict is the one at the moment of the access.

const (
	perfTypeBreakpoint = 5
	hwBreakpointW      = 2
	hwBreakpointRW     = 3

	perfSampleIP        = 1 << 0
	perfSampleTID       = 1 << 1
	perfSampleTime      = 1 << 2
	perfSampleAddr      = 1 << 3
	perfSampleCallchain = 1 << 5
	perfSampleID        = 1 << 6
	perfSampleRegsUser  = 1 << 12

	attrDisabled               = 1 << 0
	attrInherit                = 1 << 1
	attrExcludeKernel          = 1 << 5
	attrExcludeHV              = 1 << 6
	attrExcludeCallchainKernel = 1 << 21
	attrUseClockID             = 1 << 25

	perfRegSP  = 7
	perfRegR14 = 22

	perfFlagFDCloexec = 8
	perfIocSetOutput  = 0x2405
	perfIocID         = 0x80082407
	perfIocModify     = 0x4008240b
	perfIocDisable    = 0x2401

	perfRecordSample = 9
	perfRecordLost   = 2

	clockMonotonic = 1
	ringPages      = 16 // data pages per CPU; a sample is about 200 bytes
	pageSize       = 4096

	// hwSlack is the margin by which a sample must precede the owner's
	// synchronization: the kernel stamps samples with an NMI-safe clock
	// accessor that may differ from nanotime by a little.
	hwSlack = 10_000 // ns

	// selfHitLimit is how many of its owner's own accesses a hardware
	// watchpoint takes before it is freed early.
	selfHitLimit = 16
)

// perfAttr is struct perf_event_attr, PERF_ATTR_SIZE_VER8.
type perfAttr struct {
	typ, size        uint32
	config           uint64
	samplePeriod     uint64
	sampleType       uint64
	readFormat       uint64
	bits             uint64
	wakeupEvents     uint32
	bpType           uint32
	bpAddr           uint64
	bpLen            uint64
	branchSampleType uint64
	sampleRegsUser   uint64
	sampleStackUser  uint32
	clockID          int32
	sampleRegsIntr   uint64
	auxWatermark     uint32
	sampleMaxStack   uint16
	_                uint16
	auxSampleSize    uint32
	_                uint32
	sigData          uint64
	config3          uint64
}

type pollFd struct {
	fd            int32
	events, revnt int16
}

type hwRing struct {
	mem  []byte
	data []byte
}

type hwWatch struct {
	base perfAttr
	fds  [numWatch][]int // the parent events of each slot
	ids  map[uint64]int  // event id -> slot; read-only after openHW
	all  []int           // every fd, for cleanup
	ring []hwRing        // one per CPU
	pfds []pollFd        // the rings' leaders, then the eventfd
	efd  int
	mu   sync.Mutex    // serializes draining
	lost atomic.Uint64 // samples the kernel dropped
	buf  []byte        // scratch for records that wrap, under mu
}

// hwPark is the address disarmed events point at; nothing accesses it.
var hwPark uint64

func perfOpen(a *perfAttr, tid, cpu int) (int, error) {
	fd, e := rawSyscall6(nrPerfEventOpen, uintptr(unsafe.Pointer(a)),
		uintptr(tid), uintptr(cpu), ^uintptr(0), perfFlagFDCloexec, 0)
	if e != 0 {
		return -1, errno(e)
	}
	return int(fd), nil
}

// ioctl is sysIoctl, a variable so that TestWatchDisarmFailure can make
// the kernel refuse.
var ioctl = sysIoctl

// openHW opens the breakpoint events on every thread, or explains why it
// cannot.
func openHW() (_ *hwWatch, err error) {
	cpus, err := onlineCPUs()
	if err != nil {
		return nil, err
	}
	h := &hwWatch{ids: make(map[uint64]int), efd: -1}
	h.base = perfAttr{
		typ:            perfTypeBreakpoint,
		size:           uint32(unsafe.Sizeof(perfAttr{})),
		samplePeriod:   1,
		sampleType:     perfSampleIP | perfSampleTID | perfSampleTime | perfSampleAddr | perfSampleID | perfSampleCallchain | perfSampleRegsUser,
		bits:           attrDisabled | attrInherit | attrExcludeKernel | attrExcludeHV | attrExcludeCallchainKernel | attrUseClockID,
		wakeupEvents:   1,
		bpType:         hwBreakpointW,
		bpAddr:         uint64(uintptr(unsafe.Pointer(&hwPark))),
		bpLen:          8,
		sampleRegsUser: 1<<perfRegSP | 1<<perfRegR14,
		clockID:        clockMonotonic,
	}
	defer func() {
		if err != nil {
			h.close()
		}
	}()
	h.ring = make([]hwRing, len(cpus))
	leaders := make([]int, len(cpus))
	for i := range leaders {
		leaders[i] = -1
	}
	seen := make(map[int]bool)
	for round := 0; round < 8; round++ {
		tids, err := threadIDs()
		if err != nil {
			return nil, err
		}
		fresh := 0
		for _, tid := range tids {
			if seen[tid] {
				continue
			}
			seen[tid] = true
			fresh++
			err := h.openThread(tid, cpus, leaders)
			switch {
			case err == nil:
			case err == errno(eSRCH):
				// The thread exited.
			case err == errno(eNOSPC) && len(h.all) > 0:
				// The thread inherited the events from the thread that
				// created it after they were opened.
			default:
				return nil, wrap("perf_event_open", err)
			}
		}
		if fresh == 0 {
			break
		}
	}
	efd, e := rawSyscall6(nrEventfd2, 0, oCLOEXEC, 0, 0, 0, 0)
	if e != 0 {
		return nil, wrap("eventfd", errno(e))
	}
	h.efd = int(efd)
	for _, fd := range leaders {
		h.pfds = append(h.pfds, pollFd{fd: int32(fd), events: 1}) // POLLIN
	}
	h.pfds = append(h.pfds, pollFd{fd: int32(h.efd), events: 1})
	if err := h.selfTest(); err != nil {
		return nil, err
	}
	return h, nil
}

// hwProbe is the word selfTest watches.
var hwProbe atomic.Uint64

// selfTest arms a watchpoint on a word, writes the word and checks that
// the kernel wrote a sample. Some virtual machines accept breakpoint
// events, arm them and never fire them (their debug registers are not
// passed through): with such an engine every hardware watchpoint would
// wait out its limit and report nothing, so it is better to know at the
// start and use software watchpoints. A breakpoint fires synchronously
// at the access, so the sample is in a ring when the write returns; the
// write is tried a few times in case the thread moved between CPUs while
// the events were re-aimed. The probe's samples are consumed here.
func (h *hwWatch) selfTest() (err error) {
	defer func() {
		// Engines that cannot park their events are not used.
		if derr := h.disarm(0); err == nil {
			err = derr
		}
	}()
	if err := h.arm(0, uintptr(unsafe.Pointer(&hwProbe)), 8, false); err != nil {
		return err
	}
	for try := 0; try < 3; try++ {
		hwProbe.Add(1)
		fired := false
		for i := range h.ring {
			r := &h.ring[i]
			if r.mem == nil {
				continue
			}
			headp, tailp := r.positions()
			if head := atomic.LoadUint64(headp); head != atomic.LoadUint64(tailp) {
				fired = true
				atomic.StoreUint64(tailp, head)
			}
		}
		if fired {
			return nil
		}
	}
	return errorString("perf_event_open: breakpoints are accepted but do not fire on this machine")
}

// openThread opens one event per slot and CPU on thread tid.
func (h *hwWatch) openThread(tid int, cpus []int, leaders []int) error {
	var opened []int
	fail := func(err error) error {
		for _, fd := range opened {
			sysClose(fd)
		}
		return err
	}
	type ev struct {
		fd, slot, cpu int
		id            uint64
	}
	var evs []ev
	for slot := 0; slot < numWatch; slot++ {
		for ci, cpu := range cpus {
			a := h.base
			fd, err := perfOpen(&a, tid, cpu)
			if err != nil {
				return fail(err)
			}
			opened = append(opened, fd)
			var id uint64
			if err := ioctl(fd, perfIocID, uintptr(unsafe.Pointer(&id))); err != nil {
				return fail(wrap("PERF_EVENT_IOC_ID", err))
			}
			evs = append(evs, ev{fd, slot, ci, id})
		}
	}
	for _, e := range evs {
		if leaders[e.cpu] < 0 {
			mem, err := sysMmap(e.fd, (1+ringPages)*pageSize, protRead|protWrite, mapShared)
			if err != nil {
				return fail(err)
			}
			h.ring[e.cpu] = hwRing{mem: mem, data: mem[pageSize:]}
			leaders[e.cpu] = e.fd
		} else if err := ioctl(e.fd, perfIocSetOutput, uintptr(leaders[e.cpu])); err != nil {
			return fail(wrap("PERF_EVENT_IOC_SET_OUTPUT", err))
		}
	}
	for _, e := range evs {
		h.fds[e.slot] = append(h.fds[e.slot], e.fd)
		h.ids[e.id] = e.slot
	}
	h.all = append(h.all, opened...)
	return nil
}

func (h *hwWatch) close() {
	for _, r := range h.ring {
		if r.mem != nil {
			sysMunmap(r.mem)
		}
	}
	for _, fd := range h.all {
		sysClose(fd)
	}
	if h.efd >= 0 {
		sysClose(h.efd)
	}
}

// threadIDs lists the threads of the process.
func threadIDs() ([]int, error) {
	names, err := readDirNames("/proc/self/task")
	if err != nil {
		return nil, err
	}
	tids := make([]int, 0, len(names))
	for _, n := range names {
		if tid, err := parseInt(n); err == nil {
			tids = append(tids, tid)
		}
	}
	return tids, nil
}

// onlineCPUs parses /sys/devices/system/cpu/online ("0-3,5").
func onlineCPUs() ([]int, error) {
	b, err := readFile("/sys/devices/system/cpu/online")
	if err != nil {
		n := goruntime.NumCPU()
		cpus := make([]int, n)
		for i := range cpus {
			cpus[i] = i
		}
		return cpus, nil
	}
	var cpus []int
	list := trimSpace(string(b))
	for _, part := range split(list, ",") {
		lo, hi, isRange := cut(part, "-")
		a, err := parseInt(lo)
		if err != nil {
			return nil, wrap("parsing online CPUs "+string(appendJSONString(nil, list)), err)
		}
		z := a
		if isRange {
			if z, err = parseInt(hi); err != nil {
				return nil, wrap("parsing online CPUs "+string(appendJSONString(nil, list)), err)
			}
		}
		for c := a; c <= z; c++ {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// arm aims slot i's events at the n bytes at lo: write-watch for a
// sampled read, read/write-watch for a sampled write.
func (h *hwWatch) arm(i int, lo, n uintptr, write bool) error {
	a := h.base
	a.bits &^= attrDisabled
	a.bpAddr, a.bpLen, a.bpType = uint64(lo), uint64(n), hwBreakpointW
	if write {
		a.bpType = hwBreakpointRW
	}
	if hwArmPause != nil {
		hwArmPause()
	}
	for _, fd := range h.fds[i] {
		if err := ioctl(fd, perfIocModify, uintptr(unsafe.Pointer(&a))); err != nil {
			return wrap("PERF_EVENT_IOC_MODIFY_ATTRIBUTES", err)
		}
	}
	var one = uint64(1)
	sysWrite(h.efd, (*[8]byte)(unsafe.Pointer(&one))[:]) // the loop recomputes its timeout
	return nil
}

// disarm parks slot i's events, disabled: re-aimed at nothing, or else
// disabled where they are aimed (a disabled event does not fire, and the
// next arm's PERF_EVENT_IOC_MODIFY_ATTRIBUTES enables it again). It
// returns an error if an event could be neither: that event may still
// watch the slot's last bytes.
func (h *hwWatch) disarm(i int) error {
	a := h.base
	var first error
	for _, fd := range h.fds[i] {
		err := ioctl(fd, perfIocModify, uintptr(unsafe.Pointer(&a)))
		if err == nil {
			continue
		}
		if err2 := ioctl(fd, perfIocDisable, 0); err2 != nil && first == nil {
			first = wrap("PERF_EVENT_IOC_MODIFY_ATTRIBUTES: "+err.Error()+"; PERF_EVENT_IOC_DISABLE", err2)
		}
	}
	return first
}

// loop is the detector goroutine: it waits for samples or for the next
// time limit, decides the samples and frees expired watchpoints.
func (h *hwWatch) loop() {
	var b [8]byte
	for {
		timeout := -1
		if next := reapExpired(nanotime()); next != 0 {
			timeout = int((next-nanotime())/1e6) + 1
		}
		_, e := blockingSyscall6(nrPoll, uintptr(unsafe.Pointer(&h.pfds[0])), uintptr(len(h.pfds)), uintptr(timeout), 0, 0, 0)
		goruntime.KeepAlive(h.pfds)
		if e != 0 && errno(e) != eINTR {
			printStderr("racegen: polling watchpoints: " + errno(e).Error() + "\n")
			return
		}
		if h.pfds[len(h.pfds)-1].revnt != 0 {
			sysRead(h.efd, b[:])
		}
		h.flush()
	}
}

// flush decides every sample the kernel has written so far.
//
// A watchpoint whose owner synchronized is spent: every access from then
// on comes after the owner's clock moved, and none can be reported. Left
// armed until its time limit, it made every access to its bytes a debug
// exception and a sample, about 15us, for nothing (bufio.Reader's fields
// in fasthttp's server, whose connections' readers pass between
// goroutines). flush frees every watchpoint its owner's stamp shows
// spent, but only after draining every ring again: a hit that happened
// before the owner synchronized may sit in a ring this flush had drained
// already, and the kernel wrote it when it happened, before the hit that
// showed the watchpoint spent, so the second pass decides it first. A
// watchpoint whose owner waits on it (collide) is freed by its owner.
func (h *hwWatch) flush() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.drainAll()
	var spent [numWatch]*watchRec
	for i := range watchSlots {
		if r := watchSlots[i].rec.Load(); r != nil && !r.wait && r.changedAt.Load() != 0 {
			spent[i] = r
		}
	}
	if spent == [numWatch]*watchRec{} {
		return
	}
	h.drainAll()
	for i, r := range spent {
		if r != nil {
			freeWatch(i, r) // nothing if the slot has been freed and armed again
		}
	}
}

// drainAll decides the samples of every ring; the caller holds h.mu.
func (h *hwWatch) drainAll() {
	for i := range h.ring {
		h.drain(&h.ring[i])
	}
}

// positions returns the ring's data_head, which the kernel advances, and
// data_tail, which the reader does (struct perf_event_mmap_page).
func (r *hwRing) positions() (head, tail *uint64) {
	meta := unsafe.Pointer(&r.mem[0])
	return (*uint64)(unsafe.Add(meta, 1024)), (*uint64)(unsafe.Add(meta, 1032))
}

func (h *hwWatch) drain(r *hwRing) {
	if r.mem == nil {
		return
	}
	headp, tailp := r.positions()
	head := atomic.LoadUint64(headp) // the kernel's writes before head are visible
	tail := atomic.LoadUint64(tailp)
	size := uint64(len(r.data))
	for tail < head {
		off := tail % size
		hdr := r.data[off:]
		if len(hdr) < 8 {
			hdr = h.copyOut(r.data, off, 8)
		}
		typ := *(*uint32)(unsafe.Pointer(&hdr[0]))
		n := uint64(*(*uint16)(unsafe.Pointer(&hdr[6])))
		if n < 8 {
			break // corrupt; resynchronize at head
		}
		rec := r.data[off:]
		if uint64(len(rec)) < n {
			rec = h.copyOut(r.data, off, n)
		}
		switch typ {
		case perfRecordSample:
			h.decide(rec[:n])
		case perfRecordLost:
			if n >= 24 {
				h.lost.Add(*(*uint64)(unsafe.Pointer(&rec[16])))
			}
		}
		tail += n
	}
	atomic.StoreUint64(tailp, head) // the kernel may reuse the space
}

func (h *hwWatch) copyOut(data []byte, off, n uint64) []byte {
	h.buf = h.buf[:0]
	for i := uint64(0); i < n; i++ {
		h.buf = append(h.buf, data[(off+i)%uint64(len(data))])
	}
	return h.buf
}

// decide is onDataBreakpointFired (Algorithm 3 lines 21-33) for one
// sample, run after the fact.
func (h *hwWatch) decide(rec []byte) {
	word := func(i int) uint64 {
		if 8+8*i+8 > len(rec) {
			return 0
		}
		return *(*uint64)(unsafe.Pointer(&rec[8+8*i]))
	}
	// The fields in the order of PERF_SAMPLE_* bits: IP, TID, TIME,
	// ADDR, ID, CALLCHAIN, REGS_USER.
	ip, when, bp, id, nr := uintptr(word(0)), int64(word(2)), uintptr(word(3)), word(4), int(word(5))
	if 8+8*(6+nr+3) > len(rec) {
		return
	}
	chain := make([]uintptr, 0, nr)
	for k := 0; k < nr; k++ {
		if pc := word(6 + k); pc < ^uint64(4095) { // skip PERF_CONTEXT_* markers
			chain = append(chain, uintptr(pc))
		}
	}
	if word(6+nr) == 0 { // abi: no user registers (a kernel thread?)
		return
	}
	sp, g2 := uintptr(word(7+nr)), uintptr(word(8+nr))

	slot, ok := h.ids[id]
	if !ok {
		return
	}
	r := watchSlots[slot].rec.Load()
	if r == nil || when < r.armedAt || when > r.deadline {
		return // a sample of an earlier arming, or past the time limit
	}
	if bp < r.lo || bp >= r.hi {
		// The event that fired was aimed elsewhere: the kernel reports
		// a breakpoint's own address as the sample address. An event
		// the last re-aim did not reach (one inherited by a thread
		// whose parent event could no longer be modified) still
		// watches an earlier record's bytes, and its hit must not be
		// taken for an access to this record's.
		return
	}
	if g2 == 0 || g2 == r.g {
		// The owner's own access (or a later goroutine on its g, which
		// is not ordered after it, but cannot be told apart: a miss).
		// Each costs the owner a debug exception and a sample, about
		// 15us: an owner that keeps touching the bytes gets its
		// watchpoint back early.
		if r.selfHits.Add(1) == selfHitLimit {
			coolSite(r.site, when)
			freeWatch(slot, r)
		}
		return
	}
	if c := r.changedAt.Load(); c != 0 && when+hwSlack >= c {
		// The owner synchronized before the access: the watchpoint
		// is spent, and flush frees it, unless its owner waits on it.
		// Its site cools down, as after the owner's own accesses: one
		// that keeps arming on bytes other goroutines take over once
		// it synchronizes would otherwise pay an arming, two ioctls
		// per event, at each execution.
		if !r.wait {
			coolSite(r.site, when)
		}
		return
	}
	// R14 holds the current g in Go code compiled for amd64, a g struct
	// the runtime never frees. In assembly and C code it may hold
	// anything, so there it is trusted only if it names a known g and
	// SP is inside that g's stack. (The stack check is not made for Go
	// code: by the time the sample is decided the goroutine may have
	// ended and its stack been freed.)
	th := gtab.lookup(g2)
	if !goCode(ip) {
		if th == nil {
			return
		}
		if !inStack(g2, sp) {
			return // not running on that g's stack: not its access
		}
	}
	goid := readGoid(g2)
	cur := accessInfo{write: !r.write, either: r.write, goid: goid, stack: frames(chain)}
	switch {
	case th != nil && (goidOff == 0 || th.goid == goid):
		cur.goid = th.goid
		cur.g = describe(th)
	case goid == 0:
		return // g0 or a signal stack: the Go runtime's own access
	default:
		cur.g = goroutineInfo{goid: goid}
	}
	if th == r.owner {
		return
	}
	clockRace(slot, r, cur, uint64(ip)|1<<63)
}

// goCode reports whether pc is in a function compiled from Go source.
func goCode(pc uintptr) bool {
	f := goruntime.FuncForPC(pc - 1)
	if f == nil {
		return false
	}
	file, _ := f.FileLine(pc - 1)
	return hasSuffix(file, ".go")
}
