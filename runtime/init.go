package runtime

// The detector starts when its package is initialized. The package is
// imported by every instrumented package, so this runs before any hook
// can; the goroutines it starts are hidden from the program (hidden.go).
func init() {
	loadOptions()
	startProfile()
	if staticSync {
		startWatch()
	} else {
		startSampling(opts.rate)
	}
	calibrateOnce.Do(calibrateGoid)
	gcGen.Store(exactGen())
	armSentinel()
	go racegenSweeper()
}
