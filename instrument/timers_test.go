package instrument

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestTimePackageKeepsItsTimers rewrites package time itself: its own
// calls of NewTimer, After, NewTicker, Tick and Reset are the ones the
// timer helpers make, and must not be replaced by helpers, which would
// call themselves.
func TestTimePackageKeepsItsTimers(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks package time")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode}, RuntimePath, "time")
	if err != nil {
		t.Fatal(err)
	}
	var rt, tp *packages.Package
	for _, p := range pkgs {
		switch p.PkgPath {
		case RuntimePath:
			rt = p
		case "time":
			tp = p
		}
	}
	if rt == nil || tp == nil {
		t.Fatal("runtime or time not loaded")
	}
	res, err := Package(tp.Fset, tp.Syntax, tp.Types, tp.TypesInfo, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for name, src := range res.Files {
		if strings.Contains(string(src), "racegen_") && strings.Contains(string(src), timerHelpersFile) {
			t.Errorf("%s: timer helpers declared in package time", name)
		}
		for h := range timerHelpers {
			if strings.Contains(string(src), "racegen_"+h+"(") {
				t.Errorf("%s: package time calls the helper of %s", name, h)
			}
		}
		calls += strings.Count(string(src), "NewTimer(") + strings.Count(string(src), ".Reset(")
	}
	if calls == 0 {
		t.Errorf("no call of NewTimer or Reset left in package time: the test checks nothing")
	}
	if err := typeCheck(tp, rt, res); err != nil {
		t.Error(err)
	}
}
