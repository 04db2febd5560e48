//go:build amd64 || arm64

package runtime

import goruntime "runtime"

// getfp returns its caller's frame pointer; see callers_amd64.s and
// callers_arm64.s.
func getfp() uintptr

// creators fills pcs with the stack of the function that called GoFork or
// GoSpawn, which called fork or staticFork, which called creators: the
// stack at a go statement, recorded for the new goroutine's reports, as
// runtime.Callers(3, pcs) would from fork. None of the four inlines, so
// that they are the two frames it skips. It follows the
// frame pointers that the Go compiler keeps on amd64 and arm64, as the
// Go runtime's execution tracer does, instead of the unwinder's tables:
// a few loads a frame where runtime.Callers spent 40% of a go statement
// (bench/ops's BenchmarkGo at rate 1, perf record). It stays within the
// goroutine's stack, whose frames' pointers only grow towards its base,
// and falls back to runtime.Callers where it cannot tell the bounds.
//
//go:noinline
func creators(pcs []uintptr) int {
	gp := getg()
	if gp == 0 {
		return goruntime.Callers(3, pcs)
	}
	lo, hi := stackBounds(gp)
	fp := getfp() // creators' own frame
	n := 0
	for skip := 2; n < len(pcs); skip-- {
		if fp < lo || fp >= hi {
			break
		}
		if skip <= 0 {
			pcs[n] = loadWord(fp + ptrSize)
			n++
		}
		next := loadWord(fp)
		if next <= fp {
			break // the bottom of the stack, or a frame without one
		}
		fp = next
	}
	return n
}

const ptrSize = 8
