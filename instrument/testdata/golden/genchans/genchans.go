package genchans

type Item[V any] struct {
	flag  int
	value V
}

type Cache[V any] struct {
	setBuf chan *Item[V]
	out    chan V
}

func (c *Cache[V]) Set(i *Item[V]) bool {
	i.flag = 1
	select {
	case c.setBuf <- i:
		return true
	default:
		return false
	}
}

func (c *Cache[V]) Wait(i *Item[V]) {
	c.setBuf <- i
}

func (c *Cache[V]) Process() {
	for {
		select {
		case i, ok := <-c.setBuf:
			if !ok {
				close(c.out)
				return
			}
			c.out <- i.value
		}
	}
}

func (c *Cache[V]) Drain() (n int) {
	for v := range c.out {
		_ = v
		n++
	}
	return n
}

func (c *Cache[V]) Next() (V, bool) {
	i := <-c.setBuf
	v, ok := <-c.out
	_ = i
	return v, ok
}

func Forward[C ~chan E, E any](in, out C) {
	for e := range in {
		out <- e
	}
	e := <-in
	out <- e
	close(out)
}
