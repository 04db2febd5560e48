package runtime

import (
	"sync"
	"unsafe"
)

// A sync.Map is modelled as one synchronization object: every operation
// that may store releases into it before it runs, and every operation that
// may load acquires from it after it runs. That orders a Store before the
// Load that sees it, and more besides (stores of other keys), which can
// hide races but not invent them.

func mapWrite(m *sync.Map) {
	if syncHot() {
		releaseMergeAt(unsafe.Pointer(m))
	}
}

func mapRead(m *sync.Map) {
	if syncHot() {
		acquireAt(unsafe.Pointer(m))
	}
}

// MapLoad is m.Load(key).
func MapLoad(m *sync.Map, key any) (value any, ok bool) {
	defer mapRead(m)
	return m.Load(key)
}

// MapStore is m.Store(key, value).
func MapStore(m *sync.Map, key, value any) {
	mapWrite(m)
	m.Store(key, value)
}

// MapLoadOrStore is m.LoadOrStore(key, value).
func MapLoadOrStore(m *sync.Map, key, value any) (actual any, loaded bool) {
	mapWrite(m)
	defer mapRead(m)
	return m.LoadOrStore(key, value)
}

// MapLoadAndDelete is m.LoadAndDelete(key).
func MapLoadAndDelete(m *sync.Map, key any) (value any, loaded bool) {
	mapWrite(m)
	defer mapRead(m)
	return m.LoadAndDelete(key)
}

// MapDelete is m.Delete(key).
func MapDelete(m *sync.Map, key any) {
	mapWrite(m)
	m.Delete(key)
}

// MapSwap is m.Swap(key, value).
func MapSwap(m *sync.Map, key, value any) (previous any, loaded bool) {
	mapWrite(m)
	defer mapRead(m)
	return m.Swap(key, value)
}

// MapCompareAndSwap is m.CompareAndSwap(key, old, new).
func MapCompareAndSwap(m *sync.Map, key, old, new any) (swapped bool) {
	mapWrite(m)
	defer mapRead(m)
	return m.CompareAndSwap(key, old, new)
}

// MapCompareAndDelete is m.CompareAndDelete(key, old).
func MapCompareAndDelete(m *sync.Map, key, old any) (deleted bool) {
	mapWrite(m)
	defer mapRead(m)
	return m.CompareAndDelete(key, old)
}

// MapRange is m.Range(f); each call of f is ordered after the stores
// before it.
func MapRange(m *sync.Map, f func(key, value any) bool) {
	m.Range(func(key, value any) bool {
		mapRead(m)
		return f(key, value)
	})
}

// MapClear is m.Clear().
func MapClear(m *sync.Map) {
	mapWrite(m)
	m.Clear()
}
