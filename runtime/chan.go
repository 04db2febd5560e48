package runtime

import "unsafe"

// Channels follow the Go memory model's three rules:
//
//   - a send is synchronized before the completion of the receive that
//     gets its value (and a close before a receive that sees it closed):
//     senders and closers release into the channel's clock before the
//     operation, receivers acquire it after;
//   - the kth receive on a channel of capacity C is synchronized before
//     the (k+C)th send completes, which for C = 0 is "a receive happens
//     before the send completes": receivers release into the channel's
//     second clock before receiving, senders acquire it after sending.
//
// As in go build -race, a send is also a read of the channel object and a
// close a write of it, so that a close racing with a send or with another
// close is reported (chanhist.go, chanRelease). Receives are not accesses.
//
// Each clock merges all releases rather than pairing the kth send with the
// kth receive, so the detector may order more than the memory model does:
// it can hide races, but it cannot report a false one.

// Send is ch <- v, made in the function whose Ctx is ctx (see
// syncerIn).
func Send[T any](ch chan<- T, v T, site uint64, ctx *Ctx) {
	c := Chan{ref: syncRef{p: chanPtr(unsafe.Pointer(&ch))}}
	if recording() {
		c = chanPreSend(c.ref.p, site, ctx)
	} else {
		idlePair()
	}
	ch <- v
	if recording() {
		c.postSendSlow()
	}
}

// Recv is <-ch, made in the function whose Ctx is ctx.
func Recv[T any](ch <-chan T, ctx *Ctx) T {
	c := Chan{ref: syncRef{p: chanPtr(unsafe.Pointer(&ch))}}
	if recording() {
		c = chanPreRecv(c.ref.p, ctx)
	} else {
		idlePair()
	}
	v := <-ch
	if recording() {
		c.postRecvSlow()
	}
	return v
}

// Recv2 is v, ok := <-ch, made in the function whose Ctx is ctx.
func Recv2[T any](ch <-chan T, ctx *Ctx) (T, bool) {
	c := Chan{ref: syncRef{p: chanPtr(unsafe.Pointer(&ch))}}
	if recording() {
		c = chanPreRecv(c.ref.p, ctx)
	} else {
		idlePair()
	}
	v, ok := <-ch
	if recording() {
		c.postRecvSlow()
	}
	return v, ok
}

// Close is close(ch).
func Close[T any](ch chan<- T, site uint64) {
	ChanPreClose(chanPtr(unsafe.Pointer(&ch)), site)
	close(ch)
}

// A Chan is the detector's handle on a channel between the hook before a
// channel operation and the hook after it. The zero Chan (for a nil
// channel or one on the goroutine's own stack) ignores everything.
//
// It carries the goroutine's state from the first half to the second,
// which runs on the same goroutine, so that the second need not look it
// up again: a buffered send and receive made five lookups (getg and the
// goroutine table) before it did, for one channel and one goroutine.
type Chan struct {
	ref syncRef
}

// ChanOf returns the pointer that identifies the channel ch, which must
// hold a channel value, for ChanPreSend and ChanPreRecv. It is a pointer,
// not an address, so that the channel stays alive until the hook after
// the operation (see lookupSync).
func ChanOf(ch any) unsafe.Pointer {
	type eface struct {
		typ, data unsafe.Pointer
	}
	return (*eface)(unsafe.Pointer(&ch)).data
}

// chanPtr returns the channel that the channel variable at p holds.
func chanPtr(p unsafe.Pointer) unsafe.Pointer { return *(*unsafe.Pointer)(p) }

// ChanPreSend is called before a send on the channel p (see ChanOf),
// including a send case of a select, before the select runs. A select
// calls it for every send case; those not chosen only add ordering.
// ctx is the Ctx of the instrumented function making the send, which the
// operation fills or finds filled (syncerIn), or nil.
func ChanPreSend(p unsafe.Pointer, site uint64, ctx *Ctx) Chan {
	if syncHot() {
		return chanPreSend(p, site, ctx)
	}
	return Chan{ref: syncRef{p: p}}
}

//go:noinline
func chanPreSend(p unsafe.Pointer, site uint64, ctx *Ctx) Chan {
	t := syncerIn(ctx)
	sv := lookupSync(t, p)
	sv.chanRelease(t, p, site, opRead)
	return Chan{syncRef{p, sv, t}}
}

// ChanPreRecv is called before a receive from the channel p,
// including a receive case of a select and each iteration of a range
// loop, made in the function whose Ctx is ctx, or nil.
func ChanPreRecv(p unsafe.Pointer, ctx *Ctx) Chan {
	if syncHot() {
		return chanPreRecv(p, ctx)
	}
	return Chan{ref: syncRef{p: p}}
}

//go:noinline
func chanPreRecv(p unsafe.Pointer, ctx *Ctx) Chan {
	t := syncerIn(ctx)
	sv := lookupSync(t, p)
	sv.releaseReverse(t, false)
	return Chan{syncRef{p, sv, t}}
}

// ChanPreClose is called before close of the channel p.
func ChanPreClose(p unsafe.Pointer, site uint64) {
	t := syncer()
	sv := lookupSync(t, p)
	sv.chanRelease(t, p, site, opWrite)
}

// PostSend is called after the send prepared by ChanPreSend completed.
func (c Chan) PostSend() { c.postSend() }

// PostRecv is called after the receive prepared by ChanPreRecv completed.
func (c Chan) PostRecv() { c.postRecv() }

func (c Chan) postSend() {
	if syncHot() {
		c.postSendSlow()
	}
}

func (c Chan) postRecv() {
	if syncHot() {
		c.postRecvSlow()
	}
}

//go:noinline
func (c Chan) postSendSlow() {
	t := c.ref.syncer()
	c.ref.object(t).acquireReverse(t)
}

//go:noinline
func (c Chan) postRecvSlow() {
	t := c.ref.syncer()
	c.ref.object(t).acquire(t)
}
