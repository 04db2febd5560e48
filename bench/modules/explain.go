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
var explanations = []explained{}

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
