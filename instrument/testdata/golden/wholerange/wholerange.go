// Package wholerange has range loops over slices whose bodies read every
// element, recorded by one hook before the loop, and loops whose bodies
// may stop early or panic, recorded element by element.
package wholerange

type pair struct{ a, b int }

var (
	bs []byte
	ps []pair
	p  *pair
	n  int
)

// Whole: the bodies only compute.
func whole() (h uint64, t int) {
	for _, c := range bs {
		h ^= uint64(c)
		h *= 1099511628211
	}
	for i, q := range ps {
		if q.a > i {
			t += q.b >> 2
			continue
		}
		t += min(q.a, len(ps)) / 3
	}
	return h, t
}

// Per element: each body may leave the loop or panic before reading the
// rest.
func perElement() (t int) {
	for _, c := range bs {
		if c == 0 {
			break
		}
		t++
	}
	for _, q := range ps {
		t += q.a / n
	}
	for _, q := range ps {
		t += q.a << n
	}
	for _, q := range ps {
		t += p.a + q.b
	}
	for i, c := range bs {
		t += int(bs[i]) + int(c)
	}
	for _, q := range ps {
		t += f(q)
	}
	return t
}

func f(pair) int { return 0 }
