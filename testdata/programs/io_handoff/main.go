// Goroutines ordered only by I/O: a file one writes and the other polls
// for, and an HTTP handler and its client. Nothing must be reported.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

var handlerData int

func main() {
	dir, err := os.MkdirTemp("", "norace_io")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "data")
	x := 0
	go func() {
		x = 42
		f, _ := os.Create(name)
		f.Write([]byte("done"))
		f.Close()
	}()
	for {
		f, err := os.Open(name)
		if err != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		buf := make([]byte, 100)
		n, _ := f.Read(buf)
		f.Close()
		if n == 0 {
			time.Sleep(time.Millisecond)
			continue
		}
		break
	}
	fmt.Println(x)

	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		handlerData++
		fmt.Fprintf(w, "test")
		handlerData++
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ln.Close()
	go http.Serve(ln, nil)
	for i := 0; i < 2; i++ {
		handlerData++
		resp, err := http.Get("http://" + ln.Addr().String())
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(string(b))
	}
	handlerData++
	fmt.Println(handlerData)

	t := time.NewTimer(time.Hour)
	done := make(chan bool)
	y := 0
	go func() {
		<-t.C
		y = 1
		done <- true
	}()
	y = 2
	t.Reset(time.Millisecond)
	<-done
	fmt.Println(y)
}
