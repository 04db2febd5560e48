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

// A constant string of 256 bytes indexed by a byte is a lookup that
// cannot panic and reads no variable: the loop is hoisted. A shorter
// table, or a wider index, can panic, and the loop keeps its hooks.
const (
	upperTable = "\x00\x01\x02\x03\x04\x05\x06\a\b\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`ABCDEFGHIJKLMNOPQRSTUVWXYZ{|}~\x7f\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\xac\xad\xae\xaf\xb0\xb1\xb2\xb3\xb4\xb5\xb6\xb7\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7\xc8\xc9\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2\xd3\xd4\xd5\xd6\xd7\xd8\xd9\xda\xdb\xdc\xdd\xde\xdf\xe0\xe1\xe2\xe3\xe4\xe5\xe6\xe7\xe8\xe9\xea\xeb\xec\xed\xee\xef\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff"
	hexDigits  = "0123456789abcdef"
)

func tables(b []byte, w []uint16) {
	for i := 0; i < len(b); i++ {
		b[i] = upperTable[b[i]]
	}
	for i := 0; i < len(b); i++ {
		b[i] = hexDigits[b[i]]
	}
	for i := 0; i < len(w); i++ {
		w[i] = uint16(upperTable[w[i]])
	}
}
