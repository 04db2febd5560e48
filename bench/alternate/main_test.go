package main

import (
	"strings"
	"testing"
)

func TestParseAndWrite(t *testing.T) {
	res := results{}
	out := []byte("goos: linux\nBenchmarkA-2   \t  150000\t      2073 ns/op\nBenchmarkB-2 \t 10 \t 932.5 ns/op\t 12 B/op\nPASS\n")
	if n := parse(out, "x.test", res); n != 2 {
		t.Fatalf("parse found %d results, want 2", n)
	}
	parse([]byte("BenchmarkA-2 150000 4146 ns/op\nBenchmarkA-2 150000 4000 ns/op\nBenchmarkA-2 150000 4100 ns/op\n"), "y.test", res)
	var b strings.Builder
	write(&b, []string{"x.test", "y.test"}, res)
	for _, want := range []string{
		"BenchmarkA-2\n",
		"x.test", "median     2073.0 ns/op   1.00x  [2073]",
		"median     4100.0 ns/op   1.98x  [4146 4000 4100]",
		"BenchmarkB-2\n",
		"median      932.5 ns/op   1.00x  [932.5]",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}
