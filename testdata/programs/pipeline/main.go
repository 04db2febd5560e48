// Pipeline passes ownership of buffers through unbuffered and buffered
// channels; every access is ordered by a send and its receive.
package main

import "fmt"

type job struct {
	data []int
	sum  int
}

func main() {
	in := make(chan *job)
	out := make(chan *job, 4)
	go func() {
		for j := range in {
			for _, v := range j.data {
				j.sum += v
			}
			out <- j
		}
		close(out)
	}()
	go func() {
		for i := range 10 {
			j := &job{data: make([]int, 5)}
			for k := range j.data {
				j.data[k] = i + k
			}
			in <- j
		}
		close(in)
	}()
	total := 0
	for j := range out {
		total += j.sum
	}
	fmt.Println(total)
}
