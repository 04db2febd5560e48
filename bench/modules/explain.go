package main

import "strings"

// An explained entry is the reason, found by hand, for a disagreement
// with go test or for a race that one detector reports and another does
// not. The report puts the Text of the first entry that matches beside
// each row; a row that none matches has an empty explanation, which means
// that nobody has explained it yet.
//
// An entry names what it is about as precisely as it can, and Match ties
// it to the evidence that was explained, so that when racegen changes and
// a row fails for another reason, the old explanation no longer applies.
type explained struct {
	Module string // module path; "" for any module
	// Subject is a test ID ("TestCacheMaxCost", "z.TestBuffer/sub"),
	// "package P" or "all packages", as the report's rows name them; ""
	// for any. A final "*" makes it a prefix.
	Subject string
	// Form is the name of the form the row is about; "" for any.
	// Race rows are about every form that reported the race.
	Form string
	// Match must occur in the row's text: for a disagreement, what the
	// form printed (its races and failure lines); for a race, its
	// location pair. "" matches anything.
	Match string
	Text  string
}

// explanations is the hand-maintained table. Each Text says what was
// checked, so that it can be checked again.
var explanations = []explained{{
	Subject: "all packages", Match: "go: updates to go.mod needed",
	Text: "Issue 18 item 1: racegen's copy of go.mod requires its runtime module, which declares go 1.24, and the go command refuses a dependency newer than the main module's go line. Nothing was built; the module's go line must not be raised to work around it (that changes the language).",
}, {
	Match: "implicit function instantiation requires go1.18 or later",
	Text:  "Issue 18 item 2: the -toolexec form's rewritten code calls generic hooks, which the compiler rejects under the module's -lang below go1.18.",
}, {
	Module: "go.uber.org/atomic", Subject: "TestString", Match: "string_test.go:56 ↔ string_test.go:66",
	Text: "False report, issue 18 item 3: the read at :56 is in a subtest (t.Run) that has returned before the parent's write at :66; the subtest acquired what the parent released earlier, and racegen does not order the subtest's end before the code after t.Run. -race does not report it; go test passes it.",
}, {
	Module: "github.com/dgraph-io/ristretto/v2", Subject: "TestCacheMaxCost", Match: "cache.go:352 ↔ cache.go:556",
	Text: "False report, issue 18 item 4: SetWithTTL writes the flag of an item it has just allocated (:352) before sending it on setBuf in a select with a default; processItems reads the flag (:556) only after receiving it. The report pairs a new item's write with an older item's read at the same address: access history outlives a freed object. -race does not report it; go test passes it.",
}, {
	Module: "github.com/dgraph-io/ristretto/v2", Subject: "z.TestBuffer", Match: "z/buffer.go:209 ↔ z/buffer.go:518",
	Text: "False report, issue 18 items 3 and 5: Grow's write of b.buf (:209) runs in a subtest that has finished when the parent's t.Cleanup calls Release (:518). The report, made while cleanups run, fails nothing: the test passes.",
}, {
	Module: "go.uber.org/zap", Subject: "package *", Match: "racegen/runtime.sweeper",
	Text: "Issue 18 item 8: goleak.VerifyTestMain finds the goroutine racegen's runtime starts at init (runtime.sweeper) and fails the package after all its tests passed.",
}, {
	Module: "go.uber.org/zap", Subject: "zaptest.TestTestLoggerSupportsWrappedZapOptions", Form: formToolexec, Match: "zaptest/logger_test.go:90\treceived work order",
	Text: "racegen defect, not in issue 18: in the -toolexec form runtime.Caller names line 90 for the log.Info call at logger_test.go:89 (the next calls' lines are right), so the rewritten code's line information is off by one there. go test and -race pass it.",
}, {
	Module: "github.com/valyala/fasthttp", Form: formRace, Subject: "TestAllocation*",
	Text: "fasthttp's allocation_test.go is //go:build !race: -race does not run these tests.",
}, {
	Module: "github.com/valyala/fasthttp", Form: formRace, Subject: "examples/helloworldserver.TestZeroAllocation",
	Text: "//go:build !race: -race does not run this test.",
}, {
	Module: "github.com/valyala/fasthttp", Match: "allocations",
	Text: "The test counts allocations (testing.AllocsPerRun) and wants none or a few; racegen's build allocates where go test's does not (-race's does not either, where it runs the test: allocation_test.go and examples/helloworldserver are //go:build !race).",
}, {
	Module: "github.com/valyala/fasthttp", Match: "allocs per",
	Text: "The test counts allocations (testing.AllocsPerRun) and wants none; racegen's build allocates where go test's and -race's do not.",
}, {
	Module: "github.com/valyala/fasthttp", Match: "allocs/op",
	Text: "The test counts allocations (testing.AllocsPerRun) and wants none; racegen's build allocates where go test's and -race's do not.",
}, {
	Module: "github.com/valyala/fasthttp", Form: formRace, Subject: "TestServerDone*",
	Text: "server_race_test.go is //go:build race: only -race runs this test.",
}, {
	Module: "github.com/valyala/fasthttp", Match: "77657",
	Text: "racegen defect, not in issue 18: the test serves fs.go from a //go:embed file system and compares it with fs.go on disk (77657 bytes). racegen test's -overlay replaces fs.go with its rewritten source, and the go command embeds the overlay's file (210359 bytes, the size of fs.go in racegen's build directory). The -toolexec form, which rewrites only what the compiler reads, passes it.",
}, {
	Module: "github.com/valyala/fasthttp", Match: "stackless/writer.go",
	Text: "Likely a missed synchronization in a dependency: one access runs in a goroutine that github.com/klauspost/compress/zstd's encoder starts (encoder.go:420), which hands data to and from its caller with its own channels and sync primitives. racegen does not instrument dependencies, so it does not see that synchronization; -race does and reports nothing.",
}, {
	Module: "github.com/valyala/fasthttp", Subject: "TestFSByteRangeConcurrentSkipCache", Match: "http.go:2864",
	Text: "Likely a missed synchronization in a dependency: both accesses are to a buffer from github.com/valyala/bytebufferpool, whose sync.Pool hands it from one goroutine to the next inside the dependency, which racegen does not instrument. -race models sync.Pool and reports nothing.",
}, {
	Module: "github.com/valyala/fasthttp", Subject: "TestStreamBatchReadyFlushBeforeWait", Match: "stream_bounded_test.go:391",
	Text: "False report: the test reads codec.flushes (:391) after synctest.Wait, which returns once the writing goroutine (:460) is durably blocked. Under -race the Go runtime makes each goroutine's parking in a synctest bubble happen before the next Wait (runtime/synctest.go); racegen does not model testing/synctest.",
}, {
	Module: "github.com/panjf2000/ants/v2", Subject: "package .", Form: formToolexec, Match: "still running: TestRestCodeCoverage",
	Text: "racegen slowdown, not in issue 18: TestRestCodeCoverage (9 s under go test, 17 s under -race) did not finish in 20 minutes. It runs thousands of pool workers that take and return ants' spinLock, a CompareAndSwapUint32 loop with runtime.Gosched. In the goroutine dump at the timeout, 9,982 goroutines, 5,989 frames are racegen's syncVar.releaseMerge or syncVar.acquire on the lock word's clock, behind one sync.Mutex, called by atomicPre and atomicPost around every CompareAndSwap, failed ones included (a failed CAS writes nothing and should not release).",
}, {
	Module: "github.com/hashicorp/golang-lru/v2", Subject: "expirable.TestLoadingExpired", Match: "length differs from expected",
	Text: "Likely timing: the test sleeps 100 ms for the expirable LRU's reaper goroutine to purge an entry with a 5 ms TTL; under the slower instrumented build on this shared, loaded machine it had not. go test passed it in its reruns.",
}, {
	Module: "github.com/hashicorp/golang-lru/v2", Subject: "expirable.ExampleLRU",
	Text: "Timing: the example expects the expirable LRU's janitor goroutine to have purged an entry with a 10 ms TTL within 100 ms; on this shared, loaded machine it sometimes has not (Cache len 2, want 1), under go test too.",
}}

// explanation returns the text of the first entry of explanations about
// subject of module in form (or "" for a race row) whose Match occurs in
// text, or "".
func explanation(module, subject, form, text string) string {
	for _, e := range explanations {
		if (e.Module == "" || e.Module == module) && subjectMatches(e.Subject, subject) &&
			(e.Form == "" || form == "" || e.Form == form) && strings.Contains(text, e.Match) {
			return e.Text
		}
	}
	return ""
}

func subjectMatches(pattern, subject string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(subject, prefix)
	}
	return pattern == "" || pattern == subject
}
