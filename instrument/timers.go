package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
)

// A timer or ticker sends on its channel from inside the Go runtime, so a
// goroutine that receives from t.C is ordered after whatever the goroutine
// that started or reset the timer did before. The rewritten code tells
// the detector so by releasing into the channel's clock before the timer
// can fire: time.NewTimer, After, NewTicker and Tick, and the Reset
// methods of Timer and Ticker, are replaced by helpers that the rewriter
// adds to the package (the detector runtime cannot import package time,
// which would then be impossible to instrument):
//
//	func racegen_NewTimer(d time.Duration) *time.Timer {
//		t := time.NewTimer(1<<63 - 1) // does not fire before the Reset
//		racegenrt.ChanPreSend(racegenrt.ChanOf(t.C), 0, nil)
//		t.Reset(d)
//		return t
//	}
//
// The helpers have the signatures of the functions they replace, so they
// serve as function values too. Receives from t.C are instrumented as
// receives and acquire the channel's clock. A timer made by
// time.AfterFunc runs its function in a new goroutine: the AfterFunc
// helper makes the timer a synchronization object that it and every
// Reset release into, and that goroutine starts ordered after those
// releases alone (the runtime's TimerArm and TimerFunc). Package time
// itself is rewritten without the helpers: its own calls are the ones
// the helpers make.
//
// The helpers are declared once per package, in the first rewritten file
// that imports package time, and named with identifiers that no file of
// the package uses. A package none of whose rewritten files imports time
// can still call Reset on a timer that another package made; the call
// then goes through a generic helper that finds the channel without
// naming the type (timerChanHelper).

// timerHelpers are the helpers' sources by the name of the function or
// method they replace: %[1]s is the helper's name, %[2]s the qualifier
// of package time in the file that declares it ("time." or, for a dot
// import, ""), %[3]s the runtime's, and %[4]s and %[5]s names for the
// parameters, %[6]s a name for AfterFunc's function parameter.
var timerHelpers = map[string]string{
	"NewTimer": `func %[1]s(%[4]s %[2]sDuration) *%[2]sTimer {
	%[5]s := %[2]sNewTimer(1<<63 - 1)
	%[3]sChanPreSend(%[3]sChanOf(%[5]s.C), 0, nil)
	%[5]s.Reset(%[4]s)
	return %[5]s
}`,
	"After": `func %[1]s(%[4]s %[2]sDuration) <-chan %[2]sTime {
	%[5]s := %[2]sNewTimer(1<<63 - 1)
	%[3]sChanPreSend(%[3]sChanOf(%[5]s.C), 0, nil)
	%[5]s.Reset(%[4]s)
	return %[5]s.C
}`,
	"NewTicker": `func %[1]s(%[4]s %[2]sDuration) *%[2]sTicker {
	if %[4]s <= 0 {
		return %[2]sNewTicker(%[4]s) // panics with time's message
	}
	%[5]s := %[2]sNewTicker(1<<63 - 1)
	%[3]sChanPreSend(%[3]sChanOf(%[5]s.C), 0, nil)
	%[5]s.Reset(%[4]s)
	return %[5]s
}`,
	"Tick": `func %[1]s(%[4]s %[2]sDuration) <-chan %[2]sTime {
	if %[4]s <= 0 {
		return nil
	}
	%[5]s := %[2]sNewTicker(1<<63 - 1)
	%[3]sChanPreSend(%[3]sChanOf(%[5]s.C), 0, nil)
	%[5]s.Reset(%[4]s)
	return %[5]s.C
}`,
	"AfterFunc": `func %[1]s(%[4]s %[2]sDuration, %[6]s func()) *%[2]sTimer {
	var %[5]s *%[2]sTimer
	%[5]s = %[2]sAfterFunc(1<<63-1, %[3]sTimerFunc(&%[5]s, %[6]s))
	%[3]sTimerArm(%[5]s)
	%[5]s.Reset(%[4]s)
	return %[5]s
}`,
	"TimerReset": `func %[1]s(%[5]s *%[2]sTimer, %[4]s %[2]sDuration) bool {
	%[3]sChanPreSend(%[3]sChanOf(%[5]s.C), 0, nil)
	%[3]sTimerArm(%[5]s)
	return %[5]s.Reset(%[4]s)
}`,
	"TickerReset": `func %[1]s(%[5]s *%[2]sTicker, %[4]s %[2]sDuration) {
	%[3]sChanPreSend(%[3]sChanOf(%[5]s.C), 0, nil)
	%[5]s.Reset(%[4]s)
}`,
}

// timerChanHelper is the helper for a Reset call in a package where no
// rewritten file imports time: t.Reset(d) becomes helper(t).Reset(d).
// It reads the channel from the first word of the Timer or Ticker, which
// timerChanFirst checks is field C. %[1]s is the helper's name, %[2]s
// the qualifier of package unsafe, %[3]s the runtime's, %[4]s, %[5]s and
// %[6]s names for the type parameters and the parameter.
const timerChanHelper = `func %[1]s[%[4]s interface{ *%[5]s }, %[5]s any](%[6]s %[4]s) %[4]s {
	%[3]sChanPreSend(*(*%[2]sPointer)(%[2]sPointer(%[6]s)), 0, nil)
	%[3]sTimerArm(%[6]s)
	return %[6]s
}`

// timerHelperOrder is the order in which helpers are declared.
var timerHelperOrder = []string{"NewTimer", "After", "AfterFunc", "NewTicker", "Tick", "TimerReset", "TickerReset", "timerChan"}

// timerState is what the rewriting of a package's files knows of its
// timer helpers.
type timerState struct {
	hostIdx int               // the index in the package's files of the first that imports time, or -1
	names   map[string]string // helper name by the name of what it replaces
	used    map[string]bool   // identifiers of the package and helper names taken
}

// initTimers prepares the helpers of the package of files, before they
// are rewritten: they are declared in the first file that imports time,
// if one does, and their names must avoid every identifier in the
// package.
func (p *pkgRewriter) initTimers(files []*ast.File) {
	p.timers.hostIdx = -1
	p.timers.names = make(map[string]string)
	p.timers.used = make(map[string]bool)
	for i, f := range files {
		for n := range fileNames(f) {
			p.timers.used[n] = true
		}
		if p.timers.hostIdx < 0 && timeQualifier(f) != nil {
			p.timers.hostIdx = i
		}
	}
	for _, n := range p.pkg.Scope().Names() {
		p.timers.used[n] = true
	}
}

// timeQualifier returns the qualifier with which f refers to package
// time ("time." or "t.", or "" for a dot import), or nil if it does not
// import time by a name.
func timeQualifier(f *ast.File) *string {
	for _, imp := range f.Imports {
		if path, err := strconv.Unquote(imp.Path.Value); err != nil || path != "time" {
			continue
		}
		q := "time."
		if imp.Name != nil {
			switch imp.Name.Name {
			case "_":
				continue
			case ".":
				q = ""
			default:
				q = imp.Name.Name + "."
			}
		}
		return &q
	}
	return nil
}

// timerHelper returns the helper that replaces name (a key of
// timerHelpers, or "timerChan"), declaring it if it is the first use.
func (fr *fileRewriter) timerHelper(name string) *dst.Ident {
	ts := &fr.timers
	if n, ok := ts.names[name]; ok {
		return ident(n)
	}
	base := "racegen_" + name
	n := base
	for i := 1; ts.used[n] || fr.names[n]; i++ {
		n = fmt.Sprintf("%s%d", base, i)
	}
	ts.used[n] = true
	fr.names[n] = true
	ts.names[name] = n
	return ident(n)
}

// hasTimeHost reports whether a rewritten file of the package imports
// time, so that the helpers of timerHelpers can be declared.
func (fr *fileRewriter) hasTimeHost() bool { return fr.timers.hostIdx >= 0 }

// declareTimerHelpers adds the helpers the package's files use to the
// file that hosts them: the first that imports time, or, for
// timerChanHelper alone, the first rewritten file.
func (p *pkgRewriter) declareTimerHelpers(frs []*fileRewriter, files []*ast.File) error {
	if len(p.timers.names) == 0 {
		return nil
	}
	hostIdx := p.timers.hostIdx
	if hostIdx < 0 {
		hostIdx = 0
	}
	fr := frs[hostIdx]
	var src strings.Builder
	src.WriteString("package p\n")
	d, t, fn := fr.freshName("d"), fr.freshName("t"), fr.freshName("f") // the parameters, in every helper
	for _, name := range timerHelperOrder {
		helper, ok := p.timers.names[name]
		if !ok {
			continue
		}
		fr.rtUsed = true
		rt := fr.rtName + "."
		if name == "timerChan" {
			fmt.Fprintf(&src, "\n"+timerChanHelper+"\n", helper, fr.unsafeQualifier(), rt,
				fr.freshName("T"), fr.freshName("E"), t)
			continue
		}
		q := timeQualifier(files[hostIdx])
		if q == nil {
			return fmt.Errorf("the timer helper %s needs package time, which %s does not import", helper, fr.name)
		}
		fmt.Fprintf(&src, "\n"+timerHelpers[name]+"\n", helper, *q, rt, d, t, fn)
	}
	f, err := decorator.Parse(src.String())
	if err != nil {
		return fmt.Errorf("timer helpers: %w\n%s", err, src.String())
	}
	if err := checkHookCalls(f, fr.rtName); err != nil {
		return fmt.Errorf("timer helpers: %w", err)
	}
	for i, decl := range f.Decls {
		decs := decl.Decorations()
		decs.Before, decs.After = dst.EmptyLine, dst.EmptyLine
		if i == 0 {
			// Tracebacks through a helper name a file that says what
			// it is, not a line of the user's that happens to precede.
			decs.Start.Replace("//line " + timerHelpersFile + ":1")
		}
		fr.file.Decls = append(fr.file.Decls, decl)
	}
	return nil
}

// timerHelpersFile is the file name tracebacks give the timer helpers.
const timerHelpersFile = "racegen_timers.go"

// unsafeQualifier returns the qualifier of package unsafe in the file,
// importing it if the file does not.
func (fr *fileRewriter) unsafeQualifier() string {
	if name, ok := fr.importNames()["unsafe"]; ok {
		return name + "."
	}
	name := fr.freshName("racegen_unsafe")
	fr.timers.used[name] = true
	spec := &dst.ImportSpec{
		Name: dst.NewIdent(name),
		Path: &dst.BasicLit{Kind: token.STRING, Value: strconv.Quote("unsafe")},
	}
	fr.addImportDecl(spec)
	return name + "."
}

// timerChanFirst reports whether the first field of the struct that the
// timer or ticker type t (a *time.Timer or *time.Ticker) points to is the
// channel C, as timerChanHelper needs.
func timerChanFirst(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || s.NumFields() == 0 || s.Field(0).Name() != "C" {
		return false
	}
	_, isChan := s.Field(0).Type().Underlying().(*types.Chan)
	return isChan
}
