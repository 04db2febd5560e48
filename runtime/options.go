package runtime

// Options are read once, at start-up, from the environment variable
// RACEGEN_OPTIONS, which has the syntax of GORACE: space-separated
// name=value pairs.
//
//	log_path=PATH         write reports to PATH.PID instead of stderr
//	                      (stdout and stderr are also accepted)
//	exitcode=N            exit status of a program that reported races (66)
//	halt_on_error=1       exit after the first report
//	strip_path_prefix=P   remove P from the start of file names in reports
//	format=json           one JSON object per race instead of text
//	rate=R                sampling rate from 0 to 1, overriding racegen -rate
//	suppress_equal_stacks=0
//	                      report every race, not each pair of sites once
//	watch=DURATION        time limit of a watchpoint in static and collide
//	                      builds, overriding racegen -watch (15ms)
//	watchpoints=hw|sw     hw (default) uses hardware data breakpoints where
//	                      the system allows them; sw forces the software
//	                      watchpoints
//	watch_budget=F        the share of wall time that arming and disarming
//	                      hardware watchpoints may take over a run (half
//	                      the build's rate, at least 0.005); 0 lifts the
//	                      bound (watchbudget.go)
//	fresa=0|1             frequency-sensitive sampling in sampling periods
//	                      (fresa.go), overriding racegen -fresa
//	profile=PATH          start FRESA's site counts from this profile
//	profile_out=PATH      write this run's site counts to PATH.PID at exit
//	slots=N               at most N goroutines get clock entries of their
//	                      own (1024); more alive at once share them, which
//	                      bounds the cost of synchronization but can hide
//	                      races between goroutines that share (slots.go)
//	history=N             below rate 1, forget the access history once N
//	                      periods without sampling have followed the last
//	                      sampling period (see expire.go); 0 keeps it until
//	                      a GC cycle ends it
//	debug_clocks=1        end each text report with the clock state that
//	                      made it (report.go's clockState), for diagnosing
//	                      a report racegen should not have made
type options struct {
	logPath         string
	exitCode        int
	haltOnError     bool
	stripPathPrefix string
	json            bool
	dedup           bool    // report each pair of sites once
	rate            float64 // sampling rate
	watch           int64   // ns
	swWatch         bool    // watchpoints=sw
	watchBudget     float64 // watch_budget: share of wall time for arming
	history         int     // non-sampling periods history outlives, 0 for no limit
	slots           int     // most vector clock entries (slots.go)
	fresa           bool    // frequency-sensitive sampling (fresa.go)
	profile         string  // profile to start from (profile.go)
	profileOut      string  // where to write this run's profile
	debugClocks     bool    // debug_clocks: clock state in reports
}

// OptionsEnv is the environment variable the options are read from.
const OptionsEnv = "RACEGEN_OPTIONS"

var opts = options{exitCode: 66, dedup: true, rate: buildRate, watch: buildWatch, watchBudget: defaultWatchBudget, history: defaultHistory, slots: defaultSlots, fresa: buildFresa}

func loadOptions() {
	o, errs := parseOptions(getenv(OptionsEnv))
	for _, err := range errs {
		printStderr("racegen: " + OptionsEnv + ": " + err.Error() + "\n")
	}
	opts = o
}

// parseOptions parses s, keeping defaults for values it cannot use and
// returning one error for each.
func parseOptions(s string) (options, []error) {
	o := options{exitCode: 66, dedup: true, rate: buildRate, watch: buildWatch, watchBudget: defaultWatchBudget, history: defaultHistory, slots: defaultSlots, fresa: buildFresa}
	var errs []error
	for _, f := range fields(s) {
		name, val, ok := cut(f, "=")
		if !ok {
			errs = append(errs, errorString(string(appendJSONString(nil, f))+" is not name=value"))
			continue
		}
		var err error
		switch name {
		case "log_path":
			o.logPath = val
		case "exitcode":
			o.exitCode, err = parseInt(val)
			if err == nil && (o.exitCode < 0 || o.exitCode > 255) {
				err = errorString("out of range [0, 255]")
			}
			if err != nil {
				o.exitCode = 66
			}
		case "halt_on_error":
			o.haltOnError, err = parseBool(val)
		case "debug_clocks":
			o.debugClocks, err = parseBool(val)
		case "rate":
			if o.rate, err = parseShare(val); err != nil {
				o.rate = buildRate
			}
		case "history":
			o.history, err = parseInt(val)
			if err == nil && o.history < 0 {
				err = errorString("must not be negative")
			}
			if err != nil {
				o.history = defaultHistory
			}
		case "slots":
			o.slots, err = parseInt(val)
			if err == nil && !(o.slots >= 1 && o.slots <= maxTid+1) {
				err = errorString("out of range [1, 16777216]")
			}
			if err != nil {
				o.slots = defaultSlots
			}
		case "watch":
			o.watch, err = parseDuration(val)
			if err == nil && o.watch <= 0 {
				err = errorString("must be positive")
			}
			if err != nil {
				o.watch = buildWatch
			}
		case "watchpoints":
			switch val {
			case "hw":
				o.swWatch = false
			case "sw":
				o.swWatch = true
			default:
				err = errorString("want hw or sw")
			}
		case "watch_budget":
			if o.watchBudget, err = parseShare(val); err != nil {
				o.watchBudget = defaultWatchBudget
			}
		case "fresa":
			o.fresa, err = parseBool(val)
			if err != nil {
				o.fresa = buildFresa
			}
		case "profile":
			o.profile = val
		case "profile_out":
			o.profileOut = val
		case "suppress_equal_stacks":
			o.dedup, err = parseBool(val)
		case "strip_path_prefix":
			o.stripPathPrefix = val
		case "format":
			switch val {
			case "json":
				o.json = true
			case "text":
				o.json = false
			default:
				err = errorString("want text or json")
			}
		default:
			err = errorString("unknown option")
		}
		if err != nil {
			errs = append(errs, wrap(name+"="+val, err))
		}
	}
	return o, errs
}

func parseBool(s string) (bool, error) {
	switch s {
	case "1", "true":
		return true, nil
	case "0", "false":
		return false, nil
	}
	return false, errorString("want 0 or 1")
}
