package main

import ()

// results is everything one harness run measured, saved as JSON so that
// the report can be written again without measuring (-report).
type results struct {
	Command   string     `json:"command"`
	Date      string     `json:"date"`
	Machine   string     `json:"machine"`
	GoVersion string     `json:"go_version"`
	Racegen   string     `json:"racegen"` // commit and state of the racegen sources
	Reps      int        `json:"reps"`
	Timeout   float64    `json:"timeout"` // per-run limit, seconds
	Workloads []workload `json:"workloads"`
	Configs   []config   `json:"configs"`
	Cells     []*cell    `json:"cells"`
	// Profile is how the profiles of configurations that start from one
	// were made; nil if no configuration does.
	Profile *profileRun `json:"profile,omitempty"`
}

// A cell is one workload under one configuration.
type cell struct {
	Workload string `json:"workload"`
	Config   string `json:"config"`
	NA       string `json:"na,omitempty"` // why there is no measurement
	Runs     []run  `json:"runs"`
}

// cell returns the cell for workload w and configuration c, or nil.
func (rs *results) cell(w, c string) *cell {
	for _, x := range rs.Cells {
		if x.Workload == w && x.Config == c {
			return x
		}
	}
	return nil
}
