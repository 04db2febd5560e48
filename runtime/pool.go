package runtime

import "sync"

// PoolPut is p.Put(x): what the caller did before Put is ordered before
// the Get that returns x.
func PoolPut(p *sync.Pool, x any) {
	if syncHot() {
		releaseMergeAt(addrOf(p))
	}
	p.Put(x)
}

// PoolGet is p.Get().
func PoolGet(p *sync.Pool) any {
	x := p.Get()
	if syncHot() {
		acquireAt(addrOf(p))
	}
	return x
}
