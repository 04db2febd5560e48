// Generic_handoff passes items between goroutines through channels whose
// types mention type parameters, as ristretto's Cache[K, V] does with its
// setBuf: producers write freshly allocated items and offer them with a
// non-blocking send (an item the buffer has no room for is dropped, and
// the garbage collector soon gives its memory to a new item); a consumer
// receives them in a select, writes them and forwards the ones it keeps
// with a blocking send; a last stage ranges over that channel and answers
// through a third. Closes end each stage. Every access to an item comes
// after the receive that handed it over, so nothing races; but the
// accesses are ordered by those channel operations alone, so a detector
// that misses one of them, or lets the history of a dropped item reach
// the new item at its address, reports a race.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type item[V any] struct {
	flag  int
	key   uint64
	value V
	cost  int
}

type stats[V any] struct {
	items, flagged int
	last           V
}

type cache[V any] struct {
	setBuf chan *item[V]
	kept   chan *item[V]
	out    chan stats[V]
	stop   chan struct{}
}

func newCache[V any](size int) *cache[V] {
	return &cache[V]{
		setBuf: make(chan *item[V], size),
		kept:   make(chan *item[V]),
		out:    make(chan stats[V]),
		stop:   make(chan struct{}),
	}
}

// set offers a new item without blocking, as ristretto's SetWithTTL does.
func (c *cache[V]) set(key uint64, v V, update bool) bool {
	i := &item[V]{key: key, value: v}
	if update {
		i.flag = 1
	}
	select {
	case c.setBuf <- i:
		return true
	default:
		return false
	}
}

// process receives items until setBuf is closed, and keeps every other.
func (c *cache[V]) process() {
	for {
		select {
		case i, ok := <-c.setBuf:
			if !ok {
				close(c.kept)
				return
			}
			switch i.flag {
			case 1:
				i.cost += len(fmt.Sprint(i.value))
				c.kept <- i
			}
		case <-c.stop:
		}
	}
}

// count ranges over the kept items and reports what it saw.
func (c *cache[V]) count() {
	var s stats[V]
	for i := range c.kept {
		s.items++
		if i.flag == 1 && i.cost > 0 {
			s.flagged++
		}
		i.flag = 2
		s.last = i.value
	}
	c.out <- s
}

func (c *cache[V]) result() stats[V] { return <-c.out }

func main() {
	const producers, items = 4, 5000
	c := newCache[string](64)
	go c.process()
	go c.count()
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range items {
				c.set(uint64(p*items+n), strings.Repeat("a", 512), n%2 == 0)
			}
		}()
	}
	wg.Wait()
	close(c.setBuf)
	s := c.result()
	fmt.Println(s.items == s.flagged, s.items == 0 || len(s.last) == 512)
}
