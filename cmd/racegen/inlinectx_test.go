package main

import (
	"debug/dwarf"
	"debug/elf"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/racegen/racegen/instrument"
)

// TestInlinedCtx builds, with racegen, loops that call a method the
// compiler inlines, and reads the binary's debug information: the
// inlined method must declare no Ctx of its own, and the loop's function
// must declare the one both use (inlinectx.go), also when it makes no
// access itself (instrument's declareCtx). A Ctx of the inlined
// method's would be zeroed at every iteration.
func TestInlinedCtx(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the compiler")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads an ELF executable")
	}
	mod := tempModule(t, map[string]string{
		"go.mod": "module example.com/ctx\n\ngo 1.24\n",
		"main.go": `package main

type counter struct{ n int }

func (c *counter) Inc() { c.n++ }

var loops int

//go:noinline
func Loop(c *counter, n int) {
	loops++
	for i := 0; i < n; i++ {
		c.Inc()
	}
}

// Calls makes no access of its own.
//
//go:noinline
func Calls(c *counter, n int) {
	for i := 0; i < n; i++ {
		c.Inc()
	}
}

func main() {
	var c counter
	Loop(&c, 10)
	Calls(&c, 10)
	println(c.n, loops)
}
`,
	})
	bin := filepath.Join(t.TempDir(), "ctx")
	var msg strings.Builder
	if code := run([]string{"-o", testOut, "-rate=1", "build", "-C", mod, "-o", bin, "."}, &msg, &msg); code != 0 {
		t.Fatalf("racegen build: exit %d\n%s", code, msg.String())
	}
	for _, fn := range []string{"main.Loop", "main.Calls"} {
		own, inlined := ctxVariables(t, bin, fn)
		if inlined == 0 {
			t.Fatalf("%s inlines no function: the test needs (*counter).Inc inlined", fn)
		}
		if own != 1 {
			t.Errorf("%s declares %d Ctx variables of its own, want 1", fn, own)
		}
	}
}

// ctxVariables reads the debug information of the executable bin and
// returns how many variables named like racegen's Ctx the function fn
// declares itself, and how many functions it inlines. It fails the test
// if an inlined function declares one.
func ctxVariables(t *testing.T, bin, fn string) (own, inlined int) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	// name returns the name of e, or of the entry it is an instance of.
	name := func(e *dwarf.Entry) string {
		if n, ok := e.Val(dwarf.AttrName).(string); ok {
			return n
		}
		if off, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset); ok {
			r := d.Reader()
			r.Seek(off)
			if o, err := r.Next(); err == nil && o != nil {
				n, _ := o.Val(dwarf.AttrName).(string)
				return n
			}
		}
		return ""
	}
	// open holds the entries whose children are being read, the
	// outermost first; fn's, once found, is open[0].
	var open []*dwarf.Entry
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e == nil {
			return own, inlined
		}
		if e.Tag == 0 { // the end of an entry's children
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
			continue
		}
		in := len(open) > 0 && open[0].Tag == dwarf.TagSubprogram && name(open[0]) == fn
		switch {
		case in && e.Tag == dwarf.TagInlinedSubroutine:
			inlined++
		case in && e.Tag == dwarf.TagVariable && strings.HasPrefix(name(e), instrument.CtxName):
			if p := open[len(open)-1]; p.Tag == dwarf.TagInlinedSubroutine {
				t.Errorf("%s: the inlined %s declares a Ctx of its own, %s", fn, name(p), name(e))
			} else {
				own++
			}
		}
		if !e.Children {
			continue
		}
		if len(open) > 0 || e.Tag == dwarf.TagSubprogram && name(e) == fn {
			open = append(open, e)
		} else if e.Tag == dwarf.TagSubprogram {
			r.SkipChildren() // another function
		}
	}
}
