package wholeprog

// Races on the standard library's containers, whose accesses all happen
// inside std: the test's own lines only call their methods.

import (
	"bufio"
	"bytes"
	"container/list"
	"io"
	"strings"
	"sync"
	"testing"
)

func TestRaceBytesBuffer(t *testing.T) {
	var b bytes.Buffer
	b.Grow(64) // room for both writes: the buffer is never reallocated
	done := make(chan bool)
	go func() {
		b.WriteString("a") // race
		done <- true
	}()
	b.WriteString("b") // race
	<-done
}

func TestRaceStringsBuilder(t *testing.T) {
	var b strings.Builder
	b.Grow(64)
	done := make(chan bool)
	go func() {
		b.WriteString("a") // race
		done <- true
	}()
	b.WriteString("b") // race
	<-done
}

func TestRaceContainerList(t *testing.T) {
	l := list.New()
	done := make(chan bool)
	go func() {
		l.PushBack(1) // race
		done <- true
	}()
	l.PushFront(2) // race
	<-done
}

func TestRaceBufioWriter(t *testing.T) {
	w := bufio.NewWriter(io.Discard)
	done := make(chan bool)
	go func() {
		w.WriteString("a") // race
		done <- true
	}()
	w.WriteString("b") // race
	<-done
}

func TestNoRaceBytesBufferMutex(t *testing.T) {
	var (
		mu sync.Mutex
		b  bytes.Buffer
	)
	done := make(chan bool)
	for range 2 {
		go func() {
			mu.Lock()
			b.WriteString("ab")
			mu.Unlock()
			done <- true
		}()
	}
	<-done
	<-done
	if b.String() != "abab" {
		t.Errorf("buffer holds %q, want %q", b.String(), "abab")
	}
}
