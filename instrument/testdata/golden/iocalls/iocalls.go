// Calls into I/O packages and the handlers they call are plain calls and
// functions: the standard library is instrumented too, and package
// syscall's annotations order I/O (see annotations.go). Timers are
// replaced by the runtime's.
package iocalls

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

var stdin = bufio.NewReader(os.Stdin) // package level: not bracketed

var data int

func files(name string) (int, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	b := make([]byte, 16)
	n, err := f.Read(b)
	os.Stdout.Sync()
	var total int
	for ; err == nil; n, err = f.Read(b) {
		total += n
	}
	for !exists(name) {
	}
	if data > 0 {
		data--
	} else if _, err := os.Stat(name); err != nil {
		return 0, err
	}
again:
	if _, err := io.WriteString(os.Stdout, "x"); err != nil {
		goto again
	}
	go io.Copy(os.Stdout, f)
	return total, err
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

type handler struct{}

func (handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data++
}

func serve() {
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		data++
		fmt.Fprintf(w, "ok")
	})
	http.Handle("/h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data++
	}))
	http.Handle("/x", handler{})
}

func timers() {
	t := time.NewTimer(time.Second)
	t.Reset(time.Minute)
	tk := time.NewTicker(time.Second)
	tk.Reset(time.Minute)
	<-time.After(time.Millisecond)
	newTimer := time.NewTimer
	_ = newTimer
	time.Sleep(time.Millisecond)
}
