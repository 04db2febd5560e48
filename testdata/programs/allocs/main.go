// Allocs prints how many allocations testing.AllocsPerRun counts for
// operations whose count depends on inlining and escape analysis, or on
// the detector's own allocations: racegen must count what go build
// counts, as go build -race does, or a program's allocation tests fail
// under it. racegen compiles instrumented packages with an inliner that
// does not count its hooks (cmd/racegen/inliner.go), and the detector
// reuses what it allocates for a history (runtime/cellext.go).
package main

import (
	"bufio"
	"bytes"
	"container/list"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) add(k string) {
	c.mu.Lock()
	c.n[k]++
	c.mu.Unlock()
}

func main() {
	data := []byte("hello, world\nsecond line\n")
	l := list.New()
	c := &counter{n: map[string]int{"k": 0}}
	buf := make([]byte, 0, 64)
	var sb strings.Builder
	sb.Grow(64)
	ops := []struct {
		name string
		f    func()
	}{
		{"bufio.Reader over bytes.Reader", func() {
			r := bufio.NewReaderSize(bytes.NewReader(data), 16)
			r.ReadByte()
		}},
		{"bytes.Reader", func() {
			r := bytes.NewReader(data)
			r.ReadByte()
		}},
		{"list push and remove", func() { l.Remove(l.PushBack(1)) }},
		{"mutex and map", func() { c.add("k") }},
		{"strconv.AppendInt", func() { buf = strconv.AppendInt(buf[:0], 12345, 10) }},
		{"partial writes", func() {
			buf = append(buf[:0], 'a')
			buf = append(buf, "bc"...)
			buf[1] = 'x'
		}},
		{"strings.Builder", func() {
			sb.Reset()
			sb.WriteString("abc")
		}},
	}
	for _, op := range ops {
		fmt.Printf("%s: %v\n", op.name, testing.AllocsPerRun(100, op.f))
	}
}
