package main

// An explainKey names what an explanation is about: a test of a module,
// by its test ID ("TestCacheMaxCost", "z.TestBuffer/sub"), or a package
// as a whole ("package z", "package .").
type explainKey struct {
	Module  string // module path
	Subject string
}

// explanations are the reasons, found by hand, for disagreements with go
// test and for races that one detector reports and another does not.
// The report puts each beside every row about its subject, in every form;
// a row with no entry has an empty explanation, which means that nobody
// has explained it yet. Each entry should say what was checked, so that
// it can be checked again after racegen changes.
var explanations = map[explainKey]string{}

// explanation returns the explanation for subject of module, or "".
func explanation(module, subject string) string {
	return explanations[explainKey{module, subject}]
}
