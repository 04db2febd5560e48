package dep

import "sync"

// Pool hands out a fixed set of buffers, one holder at a time. It is safe
// for concurrent use: its mutex orders each Put before the Get that hands
// the same buffer out again.
type Pool struct {
	mu    sync.Mutex
	freed sync.Cond
	free  [][]byte
}

// NewPool returns a pool of n buffers of size bytes each.
func NewPool(n, size int) *Pool {
	p := &Pool{}
	p.freed.L = &p.mu
	for range n {
		p.free = append(p.free, make([]byte, size))
	}
	return p
}

// Get returns a buffer of the pool, waiting until one is free.
func (p *Pool) Get() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.free) == 0 {
		p.freed.Wait()
	}
	b := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return b
}

// Put returns b, which Get handed out, to the pool.
func (p *Pool) Put(b []byte) {
	p.mu.Lock()
	p.free = append(p.free, b)
	p.mu.Unlock()
	p.freed.Signal()
}
