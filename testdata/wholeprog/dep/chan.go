package dep

// Close closes ch.
func Close(ch chan int) {
	close(ch)
}

// Send sends v on ch.
func Send(ch chan<- int, v int) {
	ch <- v
}

// Recv receives a value from ch and returns it.
func Recv(ch <-chan int) int {
	return <-ch
}
