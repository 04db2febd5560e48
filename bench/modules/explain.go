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
	// for any.
	Subject string
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
	Module: "github.com/hashicorp/golang-lru/v2", Subject: "expirable.ExampleLRU",
	Text: "Timing: the example expects the expirable LRU's janitor goroutine to have purged an entry with a 10 ms TTL within 100 ms; on this shared, loaded machine it sometimes has not (Cache len 2, want 1), under go test too.",
}}

// explanation returns the text of the first entry of explanations about
// subject of module whose Match occurs in text, or "".
func explanation(module, subject, text string) string {
	for _, e := range explanations {
		if (e.Module == "" || e.Module == module) && (e.Subject == "" || e.Subject == subject) && strings.Contains(text, e.Match) {
			return e.Text
		}
	}
	return ""
}
