package wholeprog

// Copies done inside std (io.ReadFull, io.Pipe, bufio) and I/O through
// system calls (os.Pipe, files): a race where the copy is unordered with
// a goroutine's access, and handoffs whose order comes from the pipe or
// from a channel.

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRaceIOReadFull(t *testing.T) {
	buf := make([]byte, 4)
	r := strings.NewReader("data")
	done := make(chan bool)
	go func() {
		if _, err := io.ReadFull(r, buf); err != nil { // race
			t.Error(err)
		}
		done <- true
	}()
	_ = buf[0] // race
	<-done
}

// The pipe orders the write before the read, not what the writer does
// after it. The two accesses are a pipe's round trip and a goroutine's
// wake-up apart (pauseGC).
func TestRaceOSPipeWriteAfter(t *testing.T) {
	pauseGC(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	x := 0
	done := make(chan bool)
	go func() {
		if _, err := w.Write([]byte{1}); err != nil {
			t.Error(err)
		}
		x = 1 // race
		done <- true
	}()
	if _, err := io.ReadFull(r, make([]byte, 1)); err != nil {
		t.Error(err)
	}
	_ = x // race
	<-done
}

func TestNoRaceIOPipe(t *testing.T) {
	pr, pw := io.Pipe()
	x := 0
	go func() {
		x = 1
		pw.Write([]byte("hello"))
		pw.Close()
	}()
	b, err := io.ReadAll(pr)
	if err != nil || string(b) != "hello" {
		t.Errorf("read %q, %v", b, err)
	}
	if x != 1 {
		t.Errorf("x = %d", x)
	}
}

func TestNoRaceBufioPipe(t *testing.T) {
	pr, pw := io.Pipe()
	x := 0
	go func() {
		x = 1
		bw := bufio.NewWriter(pw)
		bw.WriteString("hello")
		bw.Flush()
		pw.Close()
	}()
	b, err := io.ReadAll(pr)
	if err != nil || string(b) != "hello" {
		t.Errorf("read %q, %v", b, err)
	}
	if x != 1 {
		t.Errorf("x = %d", x)
	}
}

func TestNoRaceOSPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	x := 0
	go func() {
		x = 1
		if _, err := w.Write([]byte{1}); err != nil {
			t.Error(err)
		}
	}()
	if _, err := io.ReadFull(r, make([]byte, 1)); err != nil {
		t.Error(err)
	}
	if x != 1 {
		t.Errorf("x = %d", x)
	}
}

func TestNoRaceFileHandoff(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data := []byte("hello")
	written := make(chan bool)
	go func() {
		if _, err := f.Write(data); err != nil {
			t.Error(err)
		}
		written <- true
	}()
	<-written
	b := make([]byte, len(data))
	if _, err := f.ReadAt(b, 0); err != nil || string(b) != "hello" {
		t.Errorf("read %q, %v", b, err)
	}
}
