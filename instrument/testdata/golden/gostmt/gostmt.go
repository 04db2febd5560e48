package gostmt

import "fmt"

type T struct{ n int }

func (t *T) M(a int)    {}
func (t T) V(a ...int)  {}
func two() (int, int)   { return 1, 2 }
func pair(a, b int)     {}
func gen[E any](e E)    {}
func variadic(a ...int) {}

var t T
var fn = func(int) {}

func spawn(p *T, xs []int, b bool) {
	go func(i int) { _ = i }(p.n)
	go t.M(p.n)
	go p.V(xs...)
	go pair(two())
	go gen(p.n)
	go variadic(1, p.n)
	go fn(t.n)
	go fmt.Println("x", p.n, b == true)
	go func() {}()
}
