// Package shardmap is a map split into shards, each guarded by its own
// mutex, used by several goroutines at once.
package shardmap

import "sync"

// Map is a sharded map from uint64 to uint64. The zero value is not
// usable; call New.
type Map struct {
	shards []shard
}

type shard struct {
	mu sync.Mutex
	m  map[uint64]uint64
}

// New returns a Map with n shards.
func New(n int) *Map {
	s := make([]shard, n)
	for i := range s {
		s[i].m = make(map[uint64]uint64)
	}
	return &Map{shards: s}
}

func (m *Map) shard(k uint64) *shard {
	k ^= k >> 29
	k *= 0xbf58476d1ce4e5b9
	return &m.shards[k%uint64(len(m.shards))]
}

// Add adds d to the value of k.
func (m *Map) Add(k, d uint64) {
	s := m.shard(k)
	s.mu.Lock()
	s.m[k] += d
	s.mu.Unlock()
}

// Get returns the value of k.
func (m *Map) Get(k uint64) uint64 {
	s := m.shard(k)
	s.mu.Lock()
	v := s.m[k]
	s.mu.Unlock()
	return v
}

// Len returns the number of keys.
func (m *Map) Len() int {
	n := 0
	for i := range m.shards {
		s := &m.shards[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}
