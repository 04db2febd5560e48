// Data handed over by channels, select and range.
package main

import "fmt"

type msg struct{ v []int }

func main() {
	ch := make(chan *msg)
	done := make(chan bool)
	quit := make(chan struct{})
	results := make(chan int, 10)
	go func() {
		for m := range ch {
			m.v[0]++
			results <- m.v[0]
		}
		close(results)
	}()
	shared := &msg{v: []int{41}}
	ch <- shared
	r := <-results
	fmt.Println(r, shared.v[0])
	go func() {
		shared.v[0] = 100
		done <- true
	}()
	var got bool
	select {
	case got = <-done:
	case <-quit:
	}
	fmt.Println(got, shared.v[0])
	close(ch)
	for v := range results {
		fmt.Println("left", v)
	}
	v, ok := <-results
	fmt.Println(v, ok)
}
