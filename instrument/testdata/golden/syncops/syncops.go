package syncops

import "sync"

type Service struct {
	sync.Mutex
	rw   sync.RWMutex
	wg   sync.WaitGroup
	once sync.Once
	cond *sync.Cond
	m    sync.Map
	pool sync.Pool
}

func (s *Service) Run(l sync.Locker) {
	s.Lock()
	defer s.Unlock()
	s.rw.RLock()
	s.rw.RUnlock()
	if s.rw.TryLock() {
		s.rw.Unlock()
	}
	rl := s.rw.RLocker()
	rl.Lock()
	rl.Unlock()
	l.Lock()
	defer l.Unlock()
	s.wg.Add(1)
	go s.wg.Done()
	s.wg.Go(func() {})
	s.wg.Wait()
	s.once.Do(func() {})
	f := sync.OnceFunc(func() {})
	f()
	val := sync.OnceValue(func() int { return 1 })
	_ = val()
	s.cond.L.Lock()
	s.cond.Signal()
	s.cond.Broadcast()
	s.cond.L.Unlock()
	s.m.Store("k", 1)
	_, _ = s.m.Load("k")
	s.m.Range(func(k, v any) bool { return true })
	s.pool.Put(1)
	_ = s.pool.Get()
	unlock := s.Unlock // a method value binds &s.Mutex now
	_ = unlock
	lock := (*sync.Mutex).Lock
	_ = lock
}
