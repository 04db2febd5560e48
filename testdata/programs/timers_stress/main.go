// Timers_stress keeps many tickers and timers firing at once. The Go
// runtime runs a timer's send (time.sendTime, which calls time.Now) on
// its system stack, so instrumented code of package time runs there; the
// detector must do nothing on that stack, neither allocate nor lock.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	ticks := 0
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk := time.NewTicker(100 * time.Microsecond)
			defer tk.Stop()
			for range 50 {
				<-tk.C
				t := time.NewTimer(50 * time.Microsecond)
				<-t.C
				mu.Lock()
				ticks++
				mu.Unlock()
			}
		}()
	}
	done := make(chan bool)
	time.AfterFunc(time.Millisecond, func() { close(done) })
	<-done
	wg.Wait()
	fmt.Println("ticks", ticks)
}
