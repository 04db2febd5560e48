// Package hoist has counted loops whose hooks the instrumenter hoists
// into range hooks before the loop, and loops it must not.
package hoist

type Matrix struct {
	N   int
	A   []float64
	Row [8]int
	S   string
}

var g []int

// Hoisted: every access is to element v+inv of a container the loop does
// not change.
func block(c, a, b *Matrix, i0, k0, j0, bs int) {
	n := c.N
	for i := i0; i < min(i0+bs, n); i++ {
		for k := k0; k < min(k0+bs, n); k++ {
			aik := a.A[i*n+k]
			for j := j0; j < min(j0+bs, n); j++ {
				c.A[i*n+j] += aik * b.A[k*n+j]
			}
		}
	}
}

func forms(m *Matrix, s []int, lo, hi, d int) (t int) {
	var local [16]int
	for v := lo; v <= hi; v++ {
		g[v-d] = s[d+v] + local[v] + int(m.S[v])
	}
	for v := 0; v < 8; v += 1 {
		m.Row[v]++
		t += v
		if t > 100 {
			t = 0
		}
	}
	return t
}

// Ranges over ints and over a slice's indexes count too, not ranges with
// values or over strings, which step by runes.
func ranges(x, y []int, n int, s string) (t int) {
	for i := range n {
		x[i] = y[i+1]
	}
	for i := range len(y) - 1 {
		x[i] += y[i]
	}
	for i := range x {
		x[i] = 0
	}
	for i, v := range x {
		y[i] = v
	}
	for i := range s {
		t += int(s[i])
	}
	return t
}

// Rows of a slice of slices and fields of elements are containers too.
func rows(out, a [][]float64, ps []*Matrix, i, n int) {
	for j := 0; j < n; j++ {
		out[i][j] = a[i][j] + ps[i].A[j]
	}
}

// Not hoisted: a strided, conditional or indirect access, a bound the body
// changes, a division that may panic, a write of an element that holds a
// pointer, a bound read from shared memory, a comparison that may panic.
func others(b []float64, p []*Matrix, idx []int, n, j int, e, f any) (t float64) {
	for k := 0; k < n; k++ {
		t += b[k*n+j]
	}
	for k := 0; k < n; k++ {
		if k > j {
			t += b[k]
		}
	}
	for k := 0; k < n; k++ {
		t += b[idx[k]]
	}
	for k := 0; k < n; k++ {
		t += b[k]
		n--
	}
	for k := 0; k < n; k++ {
		t += b[k] + float64(k/j)
	}
	for k := 0; k < n; k++ {
		p[k] = nil
	}
	for k := 0; k < len(g); k++ {
		g[k] = 0
	}
	var same bool
	for k := 0; k < n; k++ {
		t += b[k]
		same = e == f
	}
	_ = same
	return t
}

type item struct {
	n    int
	vals [8]uint32
}

// A range over an array with no value variable does not evaluate the
// array, whose length is a constant: it counts even when the array is
// reached through a pointer.
func arrays(it *item, ps []*Matrix) (t int) {
	for r := 0; r < 16; r++ {
		for j := range it.vals {
			it.vals[j] ^= it.vals[j] << 13
		}
	}
	for j := range ps[0].Row {
		t += ps[0].Row[j]
	}
	return t
}
