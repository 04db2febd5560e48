package wholeprog

// net/http over a loopback httptest server: the server runs each handler
// in a goroutine of its own, and the request and the response order the
// client and the handler through the network's system calls.

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// get fetches url with client and returns the response body.
func get(t *testing.T, client *http.Client, url string) string {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

// Two handlers, each past a barrier that both have reached, update a
// variable that nothing orders between them.
func TestRaceHTTPHandlers(t *testing.T) {
	pauseGC(t)
	n := 0
	var arrived sync.WaitGroup
	arrived.Add(2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		arrived.Wait()
		n++ // race
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	client := srv.Client()
	done := make(chan bool)
	for range 2 {
		go func() {
			get(t, client, srv.URL)
			done <- true
		}()
	}
	<-done
	<-done
}

func TestNoRaceHTTPHandlerWrite(t *testing.T) {
	x := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x = 1
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	if body := get(t, srv.Client(), srv.URL); body != "ok" {
		t.Errorf("body %q", body)
	}
	if x != 1 {
		t.Errorf("x = %d", x)
	}
}

func TestNoRaceHTTPClientWrite(t *testing.T) {
	x := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if x != 1 {
			io.WriteString(w, "x unset")
			return
		}
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	client := srv.Client()
	x = 1
	if body := get(t, client, srv.URL); body != "ok" {
		t.Errorf("body %q", body)
	}
}
