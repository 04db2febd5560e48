package runtime

import "sync"

// PoolPut is p.Put(x): what the caller did before Put is ordered before
// the Get that returns x.
func PoolPut(p *sync.Pool, x any) {
	t := syncer()
	lookupSync(t, addrOf(p)).releaseMerge(t)
	p.Put(x)
}

// PoolGet is p.Get().
func PoolGet(p *sync.Pool) any {
	x := p.Get()
	t := syncer()
	lookupSync(t, addrOf(p)).acquire(t)
	return x
}
