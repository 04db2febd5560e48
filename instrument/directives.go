package instrument

import (
	"go/token"
	"strings"

	"github.com/dave/dst"
)

// Some functions must run without hooks, because a hook is a call that
// may grow the goroutine's stack, block on a lock or allocate:
//
//   - functions marked //go:norace, which go build -race leaves alone for
//     the same reasons (the child side of fork in package syscall, for
//     one, runs where nothing may allocate or take a lock);
//   - functions marked //go:nosplit or //go:uintptrkeepalive, whose stack
//     must not grow (syscall.Syscall keeps pointers in uintptr arguments
//     alive only as long as the stack does not move);
//   - the functions of the standard library that the Go runtime calls on
//     its system stack (systemStackFuncs), where a hook would run on g0.
//
// Their bodies are compiled as they are. The function literals inside
// them are left alone too.

// systemStackFuncs are the functions, as "importpath.Name", that the Go
// runtime calls on the system stack: timers run their functions from
// runtime.(*timer).unlockAndRun, which is //go:systemstack. A timer's
// send on its channel and an AfterFunc's go statement are therefore not
// seen; the timer model (time.NewTimer and AfterFunc at their call
// sites) stands in for them.
var systemStackFuncs = map[string]bool{
	"time.sendTime": true,
	"time.goFunc":   true,
}

// noHookDirectives are the //go: directives that keep hooks out of a
// function.
var noHookDirectives = []string{"//go:norace", "//go:nosplit", "//go:uintptrkeepalive"}

// noHooks reports whether the body of d must be compiled without hooks.
func (fr *fileRewriter) noHooks(d *dst.FuncDecl) bool {
	if d.Recv == nil && systemStackFuncs[fr.pkg.Path()+"."+d.Name.Name] {
		return true
	}
	for _, c := range d.Decs.Start {
		for _, dir := range noHookDirectives {
			if c == dir || strings.HasPrefix(c, dir+" ") {
				return true
			}
		}
	}
	return false
}

// isExported reports whether d is marked //export: C calls it.
func isExported(d *dst.FuncDecl) bool {
	for _, c := range d.Decs.Start {
		if strings.HasPrefix(c, "//export ") {
			return true
		}
	}
	return false
}

// Entry hooks: a function of the standard library whose every call the
// detector must see, wherever it comes from (a function value, another
// package of the standard library), starts with a statement of the
// runtime's (see entryHooks). os.Exit asks ExitCode for the status to
// exit with, so that a program that reported races exits 66, as under go
// build -race, while os.Exit keeps its own checks (a test's os.Exit(0)
// panics).

// entryHook prepends to the body of d, a function with one parameter,
// the assignment of the runtime's answer to it, if d has an entry hook:
//
//	func Exit(code int) { code = racegenrt.ExitCode(code); ... }
func (fr *fileRewriter) entryHook(d *dst.FuncDecl) {
	h, ok := entryHooks[fr.pkg.Path()+"."+d.Name.Name]
	if !ok || d.Recv != nil || d.Body == nil || len(d.Type.Params.List) != 1 || len(d.Type.Params.List[0].Names) != 1 {
		return
	}
	p := d.Type.Params.List[0].Names[0].Name
	if p == "_" {
		return
	}
	s := &dst.AssignStmt{Lhs: []dst.Expr{ident(p)}, Tok: token.ASSIGN, Rhs: []dst.Expr{fr.rtCall(h, ident(p))}}
	d.Body.List = append([]dst.Stmt{fr.from(s, d)}, d.Body.List...)
}
