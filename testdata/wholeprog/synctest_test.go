package wholeprog

// testing/synctest: synctest.Wait returns once every other goroutine of
// the bubble is durably blocked or gone, and synctest.Test once they have
// all exited. go build -race orders both after what those goroutines did
// (the Go runtime's synctest.go); racegen follows internal/synctest's Run
// and Wait with an acquire of every goroutine's clock.

import (
	"testing"
	"testing/synctest"
)

func TestNoRaceSynctestWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		x := 0
		go func() {
			x = 1
		}()
		synctest.Wait()
		if x != 1 {
			t.Errorf("x = %d", x)
		}
	})
}

func TestNoRaceSynctestWaitBlocked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		x := 0
		ch := make(chan int)
		go func() {
			x = 1
			<-ch // durably blocked: Wait returns
		}()
		synctest.Wait()
		if x != 1 {
			t.Errorf("x = %d", x)
		}
		close(ch)
	})
}

func TestNoRaceSynctestTest(t *testing.T) {
	x := 0
	synctest.Test(t, func(t *testing.T) {
		go func() {
			x = 1
		}()
	})
	if x != 1 {
		t.Errorf("x = %d", x)
	}
}

func TestRaceSynctest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		x := 0
		go func() {
			x = 1 // race
		}()
		_ = x // race
		synctest.Wait()
	})
}
