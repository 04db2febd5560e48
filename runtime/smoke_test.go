package runtime

import (
	"sync"
	"testing"
	"unsafe"
)

func TestSmoke(t *testing.T) {
	x := new(int)
	sink = x
	a := unsafe.Pointer(x)
	before := Races()
	g := GoFork()
	done := make(chan bool)
	go func() {
		GoStart(g)
		defer GoEnd()
		Write(a, 8, newSite())
		done <- true
	}()
	Write(a, 8, newSite())
	<-done
	if Races() == before {
		t.Fatal("no race")
	}
	var mu sync.Mutex
	y := new(int)
	sink = y
	b := unsafe.Pointer(y)
	before = Races()
	g = GoFork()
	go func() {
		GoStart(g)
		defer GoEnd()
		Lock(&mu)
		Write(b, 8, newSite())
		Unlock(&mu)
		done <- true
	}()
	Lock(&mu)
	Write(b, 8, newSite())
	Unlock(&mu)
	<-done
	if Races() != before {
		t.Fatal("false race")
	}
}

var sink any

func TestHooksCompile(t *testing.T) {
	type myBytes []byte
	m := map[string]int{}
	MapW(m, 0)["a"] = 1
	_ = MapR(m, 0)["a"]
	b := myBytes("xy")
	b = Append(0, b, 'z')
	b = AppendString(0, b, "w")
	var c chan int = make(chan int, 1)
	Send(c, 1, 0, nil)
	_ = Recv(c, nil)
	x := 3
	var rc Ctx
	*W(&x, 0, &rc) = *R(&x, 0, &rc) + 1
	*W(&x, 0, nil) = *R(&x, 0, nil) - 1
	x++
	if Copy(b, myBytes("ab"), 0) != 2 || string(SliceR(b, 0)) != "abzw" || x != 4 {
		t.Fatal(string(b), x)
	}
}
