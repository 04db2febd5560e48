package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Under go build -race, the operations of sync's types are memory
// accesses of the objects too, which is how a race between a Lock and an
// assignment of the whole mutex (mu = sync.Mutex{}), or between a
// WaitGroup's first Add and a Wait, is found:
//
//   - a Mutex's Lock, TryLock and Unlock update its state word with
//     atomic operations, which race with plain accesses of it;
//   - an RWMutex's operations read its first byte (race.Read(&rw.w) in
//     package sync), which races with a write of the RWMutex;
//   - a WaitGroup's Add that takes the counter from zero reads its
//     semaphore, and the first Wait while the counter is above zero
//     writes it: "calls with a positive delta that occur when the counter
//     is zero must happen before a Wait".
//
// The wrappers record the same accesses. Their sites are the methods of
// package sync, whose positions syncSites finds in the running binary.

// The offsets of WaitGroup's fields, which TestSyncLayout checks against
// package sync's declaration: state (counter in the high 32 bits, waiter
// count in the low 31) comes first, after the zero-size noCopy, and sema
// after it.
const (
	waitGroupState = 0
	waitGroupSema  = 8
)

// The sites of the sync methods, indexes into syncSiteTable.
const (
	siteMutexLock uint64 = syncSitesKey<<32 | (iota + 1)
	siteMutexUnlock
	siteRWMutexLock
	siteRWMutexUnlock
	siteRWMutexRLock
	siteRWMutexRUnlock
	siteWaitGroupAdd
	siteWaitGroupWait
)

// syncSitesKey is the site table key of the sync methods: the FNV-1a hash
// of "sync" (the instrumenter keys each package's table by the hash of its
// path, and package sync is never instrumented, so the key is free).
const syncSitesKey = 0x097acf9a

// syncSiteMethods are the methods the sites name, in index order.
var syncSiteMethods = []any{
	(*sync.Mutex).Lock,
	(*sync.Mutex).Unlock,
	(*sync.RWMutex).Lock,
	(*sync.RWMutex).Unlock,
	(*sync.RWMutex).RLock,
	(*sync.RWMutex).RUnlock,
	(*sync.WaitGroup).Add,
	(*sync.WaitGroup).Wait,
}

var registerSyncSites = RegisterSites(syncSitesKey, syncSiteTable())

// syncSiteTable returns the site table of the sync methods: each one's
// function name and the position of its first line.
func syncSiteTable() string {
	var b []byte
	for _, m := range syncSiteMethods {
		// A func value in an interface is the interface's data word,
		// a pointer to the function's closure, whose first word is its
		// code pointer.
		data := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(&m), unsafe.Sizeof(uintptr(0))))
		f := goruntime.FuncForPC(*(*uintptr)(data))
		if f == nil {
			b = append(b, "?:0:0\t?\n"...)
			continue
		}
		file, line := f.FileLine(f.Entry())
		b = append(b, file...)
		b = append(b, ':')
		b = appendInt(b, int64(line))
		b = append(b, ":1\t"...)
		b = append(b, f.Name()...)
		b = append(b, '\n')
	}
	return string(b)
}

// mutexAccess records an atomic update of the state of the mutex at p
// (syncAccess).
func mutexAccess(t *thread, p unsafe.Pointer, site uint64) {
	syncAccess(t, p, 4, site, opWrite|opAtomic)
}

// rwMutexAccess records the read of the first byte of the RWMutex at p
// (syncAccess).
func rwMutexAccess(t *thread, p unsafe.Pointer, site uint64) {
	syncAccess(t, p, 1, site, opRead)
}

// syncAccess records the access that a synchronization operation makes to
// its object at p. t is the state of the goroutine making it, as the
// operation's syncer found it: the recording halves of the wrappers look
// the goroutine up once, for the access and for the operation's clocks,
// where they looked it up for each (callgrind, bench/ops's LockUnlock at
// rate 1: 2,888 instructions an iteration instead of 3,069; current alone
// is about 60). With a nil t, which syncer returns when the gate is
// closed and which the halves that run before they know whether there is
// an operation pass (TryLock's), the access is recorded as access records
// it.
//
// It takes the path of the instrumented accesses, hookAccess, which
// answers a repeat from the epoch cache and takes a miss to the shadow
// without accessGated and accessSlow, except in builds that count for
// FRESA, where hookAccess would draw for the access: FRESA leaves these
// accesses to accessSlow, which does not draw for atomic ones.
func syncAccess(t *thread, p unsafe.Pointer, size uintptr, site uint64, o op) {
	if t == nil {
		access(p, size, site, o)
		return
	}
	c := Ctx{t: t}
	if !fresa.count && gateOpen() {
		hookAccess(p, size, site, o, &c)
		return
	}
	accessGated(p, size, site, o, &c)
}

// waitGroupCounter returns wg's counter.
func waitGroupCounter(wg *sync.WaitGroup) int32 {
	state := (*atomic.Uint64)(unsafe.Add(unsafe.Pointer(wg), waitGroupState))
	return int32(state.Load() >> 32)
}
