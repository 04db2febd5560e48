package dep

// Counter counts calls to Inc. It is not safe for concurrent use.
type Counter struct {
	n int
}

// Inc adds one to the count.
func (c *Counter) Inc() {
	c.n++
}

// Value returns the count.
func (c *Counter) Value() int {
	return c.n
}

// Stack is a stack of ints of fixed capacity. It is not safe for
// concurrent use. It never reallocates, so that misuse from two
// goroutines corrupts at most its length.
type Stack struct {
	items []int
}

// NewStack returns an empty stack that holds up to capacity items.
func NewStack(capacity int) *Stack {
	return &Stack{items: make([]int, 0, capacity)}
}

// Push adds v on top of the stack and reports whether there was room.
func (s *Stack) Push(v int) bool {
	if len(s.items) == cap(s.items) {
		return false
	}
	s.items = append(s.items, v)
	return true
}

// Len returns the number of items on the stack.
func (s *Stack) Len() int {
	return len(s.items)
}
