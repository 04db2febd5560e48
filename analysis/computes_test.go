package analysis_test

import (
	"go/ast"
	"strings"
	"testing"

	"github.com/racegen/racegen/analysis"
)

// computesSrc marks each function whose body only computes with a
// "// computes" comment on its first line.
const computesSrc = `package p

import (
	"strings"
	"sync"
	"time"
)

type T struct {
	n  int
	f  func()
	mu sync.Mutex
	s  []int
}

type I interface{ M() }

var (
	g  []int
	ch = make(chan int)
	fv = leaf
)

func leaf() {} // computes

func loops(s []int) (t int) { // computes
	for i := range s {
		if s[i] < 0 {
			return i
		}
		t += min(s[i], 3) + len(s)
	}
	for i := 0; i < t; i++ {
		g = append(g, int(byte(i)))
	}
	return t
}

func calls() int { leaf(); return loops(g) } // computes

func (t *T) method() int { return t.n } // computes

func methodCall(t *T) int { return t.method() + (*T).method(t) } // computes

func labels(s []int) { // computes
outer:
	for range s {
		for range s {
			break outer
		}
	}
	goto end
end:
}

func even(n int) bool { return n == 0 || odd(n-1) } // computes

func odd(n int) bool { return n != 0 && even(n-1) } // computes

func generic[E any](s []E) int { return len(s) } // computes

func instantiated() int { return generic(g) + generic[int](nil) } // computes

func locks(t *T) { t.mu.Lock() }

func callsLocks(t *T) { leaf(); locks(t) }

func callsCallsLocks(t *T) { callsLocks(t) }

func recursesIntoLocks(t *T, n int) {
	if n > 0 {
		recursesIntoLocks(t, n-1)
	}
	callsLocks(t)
}

func pureCall(s string) int { return strings.Index(s, "x") } // computes

func pureCallWithFunc(s string) string { return strings.Map(mapRune, s) }

func mapRune(r rune) rune { return r } // computes

func otherPackageMethod(b *strings.Builder) { b.WriteByte('x') }

func clock(t time.Time) bool { return time.Now().After(t) && t.Unix() > 0 } // computes

func sleeps() { time.Sleep(1) }

func timeLocal(t time.Time) time.Time { return t.Local() }

func otherPackage() { sync.OnceFunc(leaf) }

func field(t *T) { t.f() }

func value() { fv() }

func iface(i I) { i.M() }

func send() { ch <- 1 }

func receive() int { return <-ch }

func rangeChan() {
	for range ch {
	}
}

func rangeFunc(seq func(func(int) bool)) {
	for range seq {
	}
}

func goes() { go leaf() }

func defers() { defer leaf() }

func closure() { _ = func() {} }

func selects() {
	select {}
}

func panics() { panic("x") }

func prints() { println() }

func recovers() { recover() }

func closes() { close(ch) }

func asm()

func callsAsm() { asm() }
`

// TestComputations checks which functions of computesSrc only compute.
func TestComputations(t *testing.T) {
	p, c, marked := loadComputations(t, computesSrc, "computes")
	funcs := funcDecls(p)
	for _, fd := range funcs {
		want := marked[p.fset.Position(fd.Pos()).Line]
		if got := c.ComputesOnly(fd.Body); got != want {
			t.Errorf("%s: ComputesOnly = %v, want %v", fd.Name.Name, got, want)
		}
	}
	if n := len(funcs); n < 20 || len(marked) < 10 {
		t.Fatalf("found %d functions, %d marked: the source lost its cases", n, len(marked))
	}
}

// loadComputations type-checks the package src, of one file, and returns
// it, its Computations, and the lines of the file that end in a comment
// of the text mark ("// computes").
func loadComputations(t *testing.T, src, mark string) (*loaded, *analysis.Computations, map[int]bool) {
	t.Helper()
	p := loadSource(t, src, "go1.26")
	marked := make(map[int]bool)
	for _, cg := range p.files[0].Comments {
		for _, cm := range cg.List {
			if strings.TrimSpace(strings.TrimPrefix(cm.Text, "//")) == mark {
				marked[p.fset.Position(cm.Pos()).Line] = true
			}
		}
	}
	return p, analysis.NewComputations(p.files, p.info), marked
}

// loopsSrc marks each loop that only computes until it is left with a
// "// computes" comment on its first line.
const loopsSrc = `package p

import (
	"fmt"
	"sync"
)

var (
	g  []byte
	mu sync.Mutex
	ch = make(chan int)
)

func valid(b byte) bool { return b < 128 } // computes

func loops() (int, error) {
	for i, b := range g { // computes
		if !valid(b) {
			return 0, fmt.Errorf("invalid byte %q at %d", b, i)
		}
	}
	for _, b := range g { // computes
		if b == 0 {
			panic(fmt.Sprint("zero"))
		}
	}
	for i := range g { // computes
		if g[i] == 1 {
			return i, nil
		}
	}
	for i := range g { // computes
		if g[i] == 2 {
			fmt.Println("two")
			return i, nil
		}
	}
	for i := range g { // computes
		if g[i] == 3 {
			err := fmt.Errorf("three")
			return i, err
		}
	}
	for i := range g {
		if g[i] == 4 {
			return <-ch, nil
		}
	}
	for range g {
		if !mu.TryLock() {
			return 0, nil
		}
	}
	for range g {
		fmt.Sprint(g)
	}
	for i := range g { // computes
		if g[i] == 5 {
			g[i] = 0
			err := fmt.Errorf("five at %d", i)
			if i > 0 {
				err = fmt.Errorf("%w after %d", err, i)
			}
			return i, err
		}
	}
	for i := range g {
		if g[i] == 6 {
			fmt.Println("six")
			if i > 1 {
				break
			}
			return i, nil
		}
	}
	for i := range g {
		if g[i] == 7 {
			fmt.Println("seven")
			for range g {
			}
			return i, nil
		}
	}
	return 0, nil
}
`

// TestComputesUntilExit checks which loops of loopsSrc only compute until
// they are left.
func TestComputesUntilExit(t *testing.T) {
	p, c, marked := loadComputations(t, loopsSrc, "computes")
	n := 0
	ast.Inspect(p.files[0], func(nd ast.Node) bool {
		s, ok := nd.(ast.Stmt)
		if !ok {
			return true
		}
		switch s.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
		default:
			return true
		}
		n++
		line := p.fset.Position(s.Pos()).Line
		if got, want := c.ComputesUntilExit(s), marked[line]; got != want {
			t.Errorf("loop at line %d: ComputesUntilExit = %v, want %v", line, got, want)
		}
		return false
	})
	if n != 11 {
		t.Fatalf("found %d loops, want 11: the source lost its cases", n)
	}
}

// leafSrc marks each loop that only computes and runs no instrumented
// code but its own (its calls are conversions, builtins and functions of
// the package that touch no memory) with a "// leaf" comment on its
// first line.
const leafSrc = `package p

import (
	"bytes"
	"fmt"
)

var (
	g, h []byte
	ch   = make(chan int)
)

type pair struct{ a, b int }

func (p pair) sum() int { return p.a + p.b }

func valid(b byte) bool { return b < 128 }

func mix(v uint64) uint64 {
	for range 3 {
		v ^= v >> 29
		v *= 0xbf58476d1ce4e5b9
	}
	return v
}

func mixTwice(v uint64) uint64 { return mix(mix(v)) + uint64(len(g[:0:0])*0) }

func fold(p pair) int { return max(p.a, p.b) + int(float64(p.b)) }

func first() byte { return g[0] }

func pointer(p *pair) int { return p.a }

func global() int { return len(g) }

func addr(v int) *int { return &v }

func method(p pair) int { return p.sum() }

func recursive(n int) int {
	if n == 0 {
		return 0
	}
	return recursive(n-1) + 1
}

func calls(n int) int { return n + first0(n) }

func first0(n int) int { return int(g[n]) }

func loops() int {
	t := 0
	for i := range g { // leaf
		t += int(g[i]) + len(h) + min(i, 3)
		h = append(h, byte(i))
	}
	for i := 1; i < len(g); i++ { // leaf
		for j := i; j > 0 && g[j-1] > g[j]; j-- {
			g[j], g[j-1] = g[j-1], g[j]
		}
	}
	for _, b := range g { // leaf
		if !valid(b) {
			t++
		}
	}
	for i := range g { // leaf
		g[i] = byte(mix(uint64(g[i])) + uint64(fold(pair{i, t})) + uint64(recursive(i)))
	}
	for i := range g { // a function that calls mix but reslices a global
		g[i] = byte(mixTwice(uint64(i)))
	}
	for range g { // a function that reads memory, then one that does not
		t += int(first()) + int(mix(1))
	}
	for range g { // a field reached through a pointer
		t += pointer(&pair{})
	}
	for range g { // a package-level variable
		t += global()
	}
	for range g { // an address taken
		t += *addr(t)
	}
	for range g { // a method called
		t += method(pair{})
	}
	for range g { // a function that calls one that reads memory
		t += calls(t)
	}
	for range g { // a function of the standard library that only computes
		t += bytes.IndexByte(h, 0)
	}
	for i := range g { // a call on the way out
		if g[i] == 0 {
			panic(fmt.Sprint(i))
		}
	}
	for range g { // a receive
		t += <-ch
	}
	for i := range g { // a function literal
		f := func() int { return i }
		t += f()
	}
	return t
}
`

// TestLeaf checks which loops of leafSrc's func loops are leaves.
func TestLeaf(t *testing.T) {
	p, c, marked := loadComputations(t, leafSrc, "leaf")
	n := 0
	ast.Inspect(p.files[0], func(nd ast.Node) bool {
		if fd, ok := nd.(*ast.FuncDecl); ok && fd.Name.Name != "loops" {
			return false
		}
		switch s := nd.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			n++
			line := p.fset.Position(s.Pos()).Line
			if got, want := c.Leaf(s), marked[line]; got != want {
				t.Errorf("loop at line %d: Leaf = %v, want %v", line, got, want)
			}
			return false
		}
		return true
	})
	if n != 15 || len(marked) != 4 {
		t.Fatalf("found %d loops, %d marked; want 15 and 4: the source lost its cases", n, len(marked))
	}
}

// blocksSrc marks each function whose body never blocks until it returns
// with a "// never blocks" comment on its first line.
const blocksSrc = `package p

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type T struct {
	sync.Mutex
	rw sync.RWMutex
	wg sync.WaitGroup
	n  atomic.Int64
	m  map[int]int
	ch chan int
}

var hits uint64

func computes(t *T) int { return t.m[0] } // never blocks

func unlocks(t *T) { t.m[1] = 1; t.Unlock() } // never blocks

func deferUnlock(t *T) int { defer t.rw.RUnlock(); return t.m[2] } // never blocks

func atomics(t *T) int64 { atomic.AddUint64(&hits, 1); return t.n.Add(1) } // never blocks

func waitGroup(t *T) { t.wg.Add(1); t.wg.Done() } // never blocks

func closes(t *T) { close(t.ch) } // never blocks

func callsUnlocks(t *T) { unlocks(t); _ = computes(t) } // never blocks

func returnsError(t *T) error { t.Unlock(); return fmt.Errorf("%d", t.m[3]) } // never blocks

func locks(t *T) { t.Lock() }

func rlocks(t *T) { t.rw.RLock() }

func waits(t *T) { t.wg.Wait() }

func receives(t *T) int { return <-t.ch }

func sends(t *T) { t.ch <- 1 }

func callsLocks(t *T) { unlocks(t); locks(t) }

func defersLock(t *T) { defer t.Lock() }

func defersClosure(t *T) { defer func() {}() }

func goes(t *T) { go unlocks(t) }

func prints(t *T) { fmt.Println(t.m) }
`

// TestNeverBlocksUntilExit checks which functions of blocksSrc never block
// until they return, and that what only computes never blocks.
func TestNeverBlocksUntilExit(t *testing.T) {
	p, c, marked := loadComputations(t, blocksSrc, "never blocks")
	funcs := funcDecls(p)
	for _, fd := range funcs {
		want := marked[p.fset.Position(fd.Pos()).Line]
		if got := c.NeverBlocksUntilExit(fd.Body); got != want {
			t.Errorf("%s: NeverBlocksUntilExit = %v, want %v", fd.Name.Name, got, want)
		}
		if c.ComputesUntilExit(fd.Body) && !want {
			t.Errorf("%s: ComputesUntilExit, but it blocks", fd.Name.Name)
		}
	}
	if n := len(funcs); n < 18 || len(marked) < 8 {
		t.Fatalf("found %d functions, %d marked: the source lost its cases", n, len(marked))
	}
	// computes only computes; atomics and returnsError are straight
	// lines that end in a return, so the whole body is on the way out
	// (exitRun), and may call anything.
	until := map[string]bool{"computes": true, "atomics": true, "returnsError": true}
	for _, fd := range funcs {
		if got, want := c.ComputesUntilExit(fd.Body), until[fd.Name.Name]; got != want {
			t.Errorf("%s: ComputesUntilExit = %v, want %v", fd.Name.Name, got, want)
		}
	}
}

// funcDecls returns the functions with bodies of p's one file.
func funcDecls(p *loaded) []*ast.FuncDecl {
	var funcs []*ast.FuncDecl
	for _, d := range p.files[0].Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			funcs = append(funcs, fd)
		}
	}
	return funcs
}
