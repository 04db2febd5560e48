package main

// results is everything one run of the harness measured, saved as JSON in
// the work directory so that -report can write the document again
// without running anything.
type results struct {
	Command   string `json:"command"`
	Date      string `json:"date"`
	Machine   string `json:"machine"`
	GoVersion string `json:"go_version"`
	Racegen   string `json:"racegen"` // commit and state of the racegen sources
	// RacegenSources is the last commit that changed racegen's sources
	// at or before the one racegen was built from (runinfo.SourcesCommit).
	RacegenSources string          `json:"racegen_sources,omitempty"`
	Timeout        float64         `json:"timeout"` // per form per module, seconds
	Reruns         int             `json:"reruns"`  // go test reruns of each disagreeing test
	NetNS          bool            `json:"netns"`   // tests ran in a network namespace with only loopback
	Env            []string        `json:"env"`     // the variables every test run had set
	Forms          []string        `json:"forms"`   // the forms run, in report order
	Modules        []*moduleResult `json:"modules"`
	Wall           float64         `json:"wall"` // seconds the whole run took
	// Load is /proc/loadavg when the run started and when it ended: the
	// machine is shared, and its load makes the wall times noisy.
	Load []string `json:"load,omitempty"`
}

// A moduleResult is one module's results in every form.
type moduleResult struct {
	Module  module `json:"module"`
	Dir     string `json:"dir,omitempty"` // the module copy's root
	GoLine  string `json:"go_line"`
	Note    string `json:"note,omitempty"`
	Warning string `json:"warning,omitempty"` // from preparing the copy
	// PrepErr says why the module could not be prepared; nothing ran.
	PrepErr string                 `json:"prep_err,omitempty"`
	Forms   map[string]*formResult `json:"forms"`
	// Reruns holds go test's verdicts on the tests that disagreed, rerun
	// with -count, by test ID: a test that fails there too is flaky
	// under go test itself.
	Reruns map[string]*testResult `json:"reruns,omitempty"`
}

// A formResult is one module's tests run in one form.
type formResult struct {
	// Build is the same command with -run='^$' first, which builds every
	// test binary, so that Run's wall time is mostly the tests'. (The
	// go command still links each test binary again in Run.)
	Build invocation `json:"build"`
	Run   invocation `json:"run"`
	// Result is what Run's go test -json output says; nil if Run could
	// not start.
	Result *testRun `json:"result"`
	// Binaries is what each test binary of Run cost.
	Binaries []binaryUsage `json:"binaries,omitempty"`
}

// form returns m's result in form name, or nil.
func (m *moduleResult) form(name string) *formResult {
	if m.Forms == nil {
		return nil
	}
	return m.Forms[name]
}

// tests returns the test results of the form, or none.
func (f *formResult) tests() map[string]*testResult {
	if f == nil || f.Result == nil {
		return nil
	}
	return f.Result.Tests
}

// packages returns the package results of the form, or none.
func (f *formResult) packages() map[string]*pkgResult {
	if f == nil || f.Result == nil {
		return nil
	}
	return f.Result.Packages
}
