package chans

var res []int

func chans(ch chan int, out chan<- any, quit chan struct{}) {
	ch <- 1
	out <- res
	v := <-ch
	v, ok := <-ch
	_, _ = v, ok
	select {
	case x := <-ch:
		_ = x
	case out <- v:
	case res[0], ok = <-ch:
	case <-quit:
		return
	default:
	}
loop:
	for x := range ch {
		if x == 0 {
			continue loop
		}
		break loop
	}
	close(ch)
}

var shared int

// recvAssign stores what it receives: the write is recorded after the
// receive, which orders it.
func recvAssign(ch chan int, m map[string]int) {
	shared = <-ch
	m["k"] = <-ch
}
