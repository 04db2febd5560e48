package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// raceFuncsSrc calls every function that package runtime has in race
// builds only, as code under the race build tag does.
const raceFuncsSrc = `package p

import (
	"runtime"
	"unsafe"
)

var x [8]byte

func annotate() int {
	p := unsafe.Pointer(&x[0])
	runtime.RaceAcquire(p)
	runtime.RaceRelease(p)
	runtime.RaceReleaseMerge(p)
	runtime.RaceRead(p)
	runtime.RaceWrite(p)
	runtime.RaceReadRange(p, len(x))
	runtime.RaceWriteRange(p, 4)
	return runtime.RaceErrors()
}
`

// TestRuntimeRaceFuncs checks that the functions DeclareRaceFuncs adds to
// package runtime become the hooks of internal/race's annotations of the
// same names, and that the runtime import, left unused, is blanked.
func TestRuntimeRaceFuncs(t *testing.T) {
	rt := types.NewPackage("runtime", "runtime")
	rt.MarkComplete()
	DeclareRaceFuncs(rt)
	DeclareRaceFuncs(rt) // a second call declares nothing twice
	imp := mapImporter{"runtime": rt, "unsafe": types.Unsafe}
	fset := token.NewFileSet()
	f, pkg, info := checkSrc(t, fset, imp, "p", raceFuncsSrc)
	res, err := Package(fset, []*ast.File{f}, pkg, info, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	for _, src := range res.Files {
		out = string(src)
	}
	for _, want := range []string{
		"racegenrt.Acquire(p)",
		"racegenrt.Release(p)",
		"racegenrt.ReleaseMerge(p)",
		"racegenrt.Read(p, 1, ",
		"racegenrt.Write(p, 1, ",
		"racegenrt.ReadRange(p, uintptr(len(x)), ",
		"racegenrt.WriteRange(p, uintptr(4), ",
		"return racegenrt.Races()",
		`_ "runtime"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rewritten file lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "runtime.Race") {
		t.Errorf("rewritten file still calls runtime.Race*:\n%s", out)
	}
}
