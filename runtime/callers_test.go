package runtime

import (
	goruntime "runtime"
	"slices"
	"testing"
)

// TestCreators: the creation stack that fork records by frame pointers
// reports the same functions and lines as runtime.Callers, inlined frames
// included, from the function that made the go statement down.
func TestCreators(t *testing.T) {
	got, want := creatorsOuter()
	if len(got) == 0 || !slices.Equal(frameNames(got), frameNames(want)) {
		t.Errorf("creators:\n%v\nruntime.Callers:\n%v", frameNames(got), frameNames(want))
	}
	done := make(chan []string)
	go creatorsGoroutine(done, 0) // under a compiler wrapper, gowrap1
	if got := <-done; len(got) == 0 || slices.Contains(got, "|") {
		t.Errorf("creators under a go statement's wrapper: %v", got)
	}
}

// creatorsGoroutine sends the frames of creatorsOuter's two stacks if
// they agree, nil if they do not.
func creatorsGoroutine(done chan<- []string, _ int) {
	got, want := creatorsOuter()
	if g, w := frameNames(got), frameNames(want); slices.Equal(g, w) {
		done <- g
	} else {
		done <- append(append(g, "|"), w...)
	}
}

// creatorsOuter calls creatorsInner, which the compiler may inline.
//
//go:noinline
func creatorsOuter() (got, want []uintptr) { return creatorsInner() }

func creatorsInner() (got, want []uintptr) {
	want = make([]uintptr, creationDepth)
	got, n := creatorsGoFork(), goruntime.Callers(1, want) // one line
	return got, want[:n]
}

// creatorsGoFork and creatorsFork stand for GoFork and fork.
//
//go:noinline
func creatorsGoFork() []uintptr { return creatorsFork() }

//go:noinline
func creatorsFork() []uintptr {
	pcs := make([]uintptr, creationDepth)
	return pcs[:creators(pcs)]
}

// frameNames returns "function:line" for the logical frames of pcs but
// the compiler's wrappers, which reports leave out (frames): this
// package's own frames, which reports also leave out, are the ones
// compared here.
func frameNames(pcs []uintptr) []string {
	var names []string
	it := goruntime.CallersFrames(pcs)
	for {
		f, more := it.Next()
		if !goWrapper(f.Function) {
			names = append(names, f.Function+":"+itoa(f.Line))
		}
		if !more {
			return names
		}
	}
}

func TestGoWrapper(t *testing.T) {
	tests := []struct {
		fn   string
		want bool
	}{
		{"testing.(*T).Run.gowrap1", true},
		{"main.main.deferwrap12", true},
		{"main.gowrapper", false},
		{"main.(*T).gowrap", false},
		{"main.main.func1", false},
	}
	for _, tt := range tests {
		if got := goWrapper(tt.fn); got != tt.want {
			t.Errorf("goWrapper(%q) = %v, want %v", tt.fn, got, tt.want)
		}
	}
}

func itoa(n int) string { return string(appendInt(nil, int64(n))) }
