package runtime

import (
	"sync"
	"testing"
	"unsafe"
)

func TestSmoke(t *testing.T) {
	x := new(int)
	sink = x
	a := uintptr(unsafe.Pointer(x))
	before := Races()
	g := GoFork()
	done := make(chan bool)
	go func() {
		GoStart(g)
		defer GoEnd()
		Write(a, 8, 1)
		done <- true
	}()
	Write(a, 8, 2)
	<-done
	if Races() == before {
		t.Fatal("no race")
	}
	var mu sync.Mutex
	y := new(int)
	sink = y
	b := uintptr(unsafe.Pointer(y))
	before = Races()
	g = GoFork()
	go func() {
		GoStart(g)
		defer GoEnd()
		Lock(&mu)
		Write(b, 8, 3)
		Unlock(&mu)
		done <- true
	}()
	Lock(&mu)
	Write(b, 8, 4)
	Unlock(&mu)
	<-done
	if Races() != before {
		t.Fatal("false race")
	}
}
var sink any
