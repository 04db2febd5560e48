// Gostack prints the bottom of the stacks of goroutines started by go
// statements of every kind: a declared function, a method value, a
// function in a variable, a generic function and a function literal.
// Code that walks its own stack to the bottom, as loggers with a caller
// skip do, must find the same frames as without racegen, which adds no
// frame of its own (runtime/spawn.go). It also prints the profiler labels
// of a goroutine started under pprof.Do, which the new goroutine inherits
// from its creator as in an uninstrumented build.
package main

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
)

var wg sync.WaitGroup

// bottom prints the functions of the calling goroutine's stack, from its
// caller down.
func bottom(kind string) {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var names []string
	for {
		f, more := frames.Next()
		names = append(names, f.Function)
		if !more {
			break
		}
	}
	fmt.Printf("%s: %s\n", kind, strings.Join(names, " <- "))
}

func declared(kind string) {
	defer wg.Done()
	bottom(kind)
}

type server struct{ name string }

func (s *server) serve() {
	defer wg.Done()
	bottom("method value " + s.name)
}

func generic[T any](v T) {
	defer wg.Done()
	bottom(fmt.Sprint("generic ", v))
}

// labelled blocks until released, so that the goroutine profile sees it.
func labelled(started chan<- bool, release <-chan bool) {
	defer wg.Done()
	started <- true
	<-release
}

func main() {
	wg.Add(1)
	go declared("declared")
	wg.Wait()

	s := &server{name: "s"}
	wg.Add(1)
	go s.serve()
	wg.Wait()

	f := declared
	wg.Add(1)
	go f("variable")
	wg.Wait()

	wg.Add(1)
	go generic(42)
	wg.Wait()

	wg.Add(1)
	go func() {
		defer wg.Done()
		bottom("literal")
	}()
	wg.Wait()

	started, release := make(chan bool), make(chan bool)
	pprof.Do(context.Background(), pprof.Labels("racegen", "spawn"), func(context.Context) {
		wg.Add(1)
		go labelled(started, release)
	})
	<-started
	var buf bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&buf, 1)
	for _, group := range strings.Split(buf.String(), "\n\n") {
		if strings.Contains(group, "main.labelled") {
			for _, line := range strings.Split(group, "\n") {
				if strings.HasPrefix(line, "# labels:") {
					fmt.Println("labelled:", line)
				}
			}
		}
	}
	close(release)
	wg.Wait()
}
