package racemarks

import (
	"strings"
	"testing"
)

const src = `package main

func main() {
	x = 1 // race: one
	_ = x // race: one
	y = 2 // race: two
}
`

func TestReadMarkers(t *testing.T) {
	lines, names := ReadMarkers([]byte(src))
	if len(names) != 2 || names[0] != "one" || names[1] != "two" {
		t.Fatalf("names = %v, want [one two]", names)
	}
	if lines[4] != "one" || lines[5] != "one" || lines[6] != "two" || len(lines) != 3 {
		t.Fatalf("lines = %v", lines)
	}
}

func TestParseReports(t *testing.T) {
	lines, _ := ReadMarkers([]byte(src))
	stderr := `racegen: some start-up note
{"addr":"0x1","access":{"op":"read","goroutine":7,"stack":[{"func":"main.main.func1","file":"/x/main.go","line":5},{"func":"main.pair","file":"/x/main.go","line":40}]},"previous":{"op":"write","goroutine":6,"stack":[{"func":"main.main.func2","file":"/x/main.go","line":4}]}}
{"addr":"0x2","access":{"op":"write","goroutine":7,"stack":[{"func":"helper","file":"/x/other.go","line":6},{"func":"main.main","file":"/x/main.go","line":6}]},"previous":{"op":"write","goroutine":6,"stack":[{"func":"main.main","file":"/x/main.go","line":9}]}}
not json
`
	v, err := ParseReports([]byte(stderr), "main.go", lines)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Found["one"] || len(v.Found) != 1 {
		t.Errorf("found %v, want only one", v.Found)
	}
	if len(v.Unexpected) != 1 || !strings.Contains(v.Unexpected[0], "main.go:9") {
		t.Errorf("unexpected = %q, want the report naming line 9", v.Unexpected)
	}
	if _, err := ParseReports([]byte("{broken\n"), "main.go", lines); err == nil {
		t.Error("broken JSON accepted")
	}
}
