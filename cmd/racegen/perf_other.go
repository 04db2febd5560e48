//go:build !linux

package main

// hardwareWatchpoints reports false: the runtime's hardware watchpoint
// engine uses Linux's perf_event_open.
func hardwareWatchpoints() bool { return false }
