package runtime

import (
	"sync"
	"unsafe"
)

// PoolPut is p.Put(x): what the caller did before Put is ordered before
// the Get that returns x.
func PoolPut(p *sync.Pool, x any) {
	if syncHot() {
		releaseMergeAt(unsafe.Pointer(p))
	}
	p.Put(x)
}

// PoolGet is p.Get().
func PoolGet(p *sync.Pool) any {
	x := p.Get()
	if syncHot() {
		acquireAt(unsafe.Pointer(p))
	}
	return x
}
