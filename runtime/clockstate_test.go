package runtime

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// TestDebugClocks checks that the debug_clocks option ends a text report
// with the clock state that made it, and that reports have no such line
// without it.
func TestDebugClocks(t *testing.T) {
	for _, on := range []bool{false, true} {
		setSampling(t, true)
		saved := opts.debugClocks
		opts.debugClocks = on
		var mu sync.Mutex
		var buf bytes.Buffer
		restore := SetOutput(writerFunc(func(b []byte) {
			mu.Lock()
			buf.Write(b)
			mu.Unlock()
		}))
		x := heapObject()
		s1, s2 := newSite(), newSite()
		inGoroutine(func() { Write(x, 8, s1) })
		inGoroutine(func() { Write(x, 8, s2) })
		restore()
		opts.debugClocks = saved

		mu.Lock()
		text := buf.String()
		mu.Unlock()
		if !strings.Contains(text, "WARNING: DATA RACE") {
			t.Fatalf("debug_clocks=%v: no report:\n%s", on, text)
		}
		i := strings.Index(text, "\nClocks: ")
		if !on {
			if i >= 0 {
				t.Errorf("debug_clocks=0: report has a Clocks line:\n%s", text)
			}
			continue
		}
		if i < 0 {
			t.Fatalf("debug_clocks=1: report has no Clocks line:\n%s", text)
		}
		line, _, _ := strings.Cut(text[i+1:], "\n")
		for _, f := range []string{"prev.slot=", "prev.clock=", "cur.knows=", "gen=", "exact=", "known=0"} {
			if !strings.Contains(line, f) {
				t.Errorf("Clocks line lacks %q: %s", f, line)
			}
		}
	}
}

type writerFunc func([]byte)

func (f writerFunc) Write(b []byte) (int, error) { f(b); return len(b), nil }
