package atomics

import "sync/atomic"

type node struct{ next *node }

var (
	n    int64
	flag atomic.Bool
	cnt  atomic.Int64
	head atomic.Pointer[node]
	val  atomic.Value
)

func atomics() {
	atomic.AddInt64(&n, 1)
	_ = atomic.LoadInt64(&n)
	atomic.StoreInt64(&n, 2)
	atomic.CompareAndSwapInt64(&n, 2, 3)
	cnt.Add(1)
	_ = cnt.Load()
	flag.Store(true)
	head.Store(&node{})
	_ = head.Load()
	val.Store(1)
	add := atomic.AddInt64
	add(&n, 1)
}
