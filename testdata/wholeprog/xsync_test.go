package wholeprog

// golang.org/x/sync, a real dependency: errgroup, singleflight and
// semaphore order their callers through channels, sync.WaitGroup,
// sync.Once and mutexes used inside the module.

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"
)

// Two functions of a group run concurrently.
func TestRaceErrgroup(t *testing.T) {
	var g errgroup.Group
	x := 0
	g.Go(func() error {
		x = 1 // race
		return nil
	})
	g.Go(func() error {
		x = 2 // race
		return nil
	})
	g.Wait()
	_ = x
}

// A semaphore of weight 2 admits both holders at once. Neither releases
// before the test has waited for both, so no release orders them.
func TestRaceSemaphore(t *testing.T) {
	sem := semaphore.NewWeighted(2)
	ctx := context.Background()
	x := 0
	done := make(chan bool)
	go func() {
		if err := sem.Acquire(ctx, 1); err != nil {
			t.Error(err)
		}
		x = 1 // race
		done <- true
	}()
	if err := sem.Acquire(ctx, 1); err != nil {
		t.Error(err)
	}
	x = 2 // race
	<-done
	sem.Release(2)
	_ = x
}

func TestNoRaceErrgroupWait(t *testing.T) {
	var g errgroup.Group
	results := make([]int, 4)
	for i := range results {
		g.Go(func() error {
			results[i] = i + 1
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, r := range results {
		sum += r
	}
	if sum != 10 {
		t.Errorf("sum = %d", sum)
	}
}

// With a limit of one, the group's semaphore channel orders each function
// before the next.
func TestNoRaceErrgroupSetLimit(t *testing.T) {
	var g errgroup.Group
	g.SetLimit(1)
	x := 0
	for range 3 {
		g.Go(func() error {
			x++
			return nil
		})
	}
	g.Wait()
	if x != 3 {
		t.Errorf("x = %d", x)
	}
}

// The failing function's error cancels the group's context, which orders
// its write before the read of a sibling waiting on the context.
func TestNoRaceErrgroupWithContext(t *testing.T) {
	g, ctx := errgroup.WithContext(context.Background())
	x := 0
	g.Go(func() error {
		<-ctx.Done()
		_ = x
		return nil
	})
	g.Go(func() error {
		x = 1
		return errors.New("stop")
	})
	if err := g.Wait(); err == nil {
		t.Error("Wait returned no error")
	}
}

// Callers that share a call read the result its function wrote.
func TestNoRaceSingleflight(t *testing.T) {
	type result struct{ n int }
	var g singleflight.Group
	release := make(chan struct{})
	fn := func() (any, error) {
		<-release
		r := new(result)
		r.n = 1
		return r, nil
	}
	var wg sync.WaitGroup
	got := make([]int, 2)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err, _ := g.Do("key", fn)
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = v.(*result).n
		}()
	}
	// Give the second caller time to join the first's call; the verdict
	// does not depend on whether it did.
	time.Sleep(time.Millisecond)
	close(release)
	wg.Wait()
	if got[0] != 1 || got[1] != 1 {
		t.Errorf("got %v", got)
	}
}

func TestNoRaceSemaphore(t *testing.T) {
	sem := semaphore.NewWeighted(1)
	ctx := context.Background()
	x := 0
	done := make(chan bool)
	for range 2 {
		go func() {
			if err := sem.Acquire(ctx, 1); err != nil {
				t.Error(err)
			}
			x++
			sem.Release(1)
			done <- true
		}()
	}
	<-done
	<-done
	if x != 2 {
		t.Errorf("x = %d", x)
	}
}

// The waiter is usually blocked when the holder releases, and is then
// woken by a channel the semaphore closes under its mutex.
func TestNoRaceSemaphoreHandoff(t *testing.T) {
	sem := semaphore.NewWeighted(1)
	ctx := context.Background()
	if err := sem.Acquire(ctx, 1); err != nil {
		t.Fatal(err)
	}
	x := 0
	done := make(chan bool)
	go func() {
		if err := sem.Acquire(ctx, 1); err != nil {
			t.Error(err)
		}
		_ = x
		sem.Release(1)
		done <- true
	}()
	time.Sleep(100 * time.Microsecond)
	x = 1
	sem.Release(1)
	<-done
}
