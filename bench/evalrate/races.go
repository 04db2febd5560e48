package main

import (
	"strings"

	"github.com/racegen/racegen/bench/internal/racemarks"
)

// The evaluation programs' marks and reports, read by racemarks.
type (
	raceLines = racemarks.Lines
	verdict   = racemarks.Verdict
)

var (
	parseReports = racemarks.ParseReports
	loadProgram  = racemarks.LoadProgram
)

// optionUnsupported reports whether a program's start-up complaints on
// stderr say the RACEGEN_OPTIONS option name is unknown or refused.
func optionUnsupported(stderr []byte, name string) bool {
	for line := range strings.Lines(string(stderr)) {
		if strings.HasPrefix(line, "racegen: RACEGEN_OPTIONS: "+name+"=") {
			return true
		}
	}
	return false
}
