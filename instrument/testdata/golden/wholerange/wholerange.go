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

const lower = "\x00\x01\x02\x03\x04\x05\x06\a\b\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f !\"#$%&'()*+,-./0123456789:;<=>?@abcdefghijklmnopqrstuvwxyz[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\xac\xad\xae\xaf\xb0\xb1\xb2\xb3\xb4\xb5\xb6\xb7\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7\xc8\xc9\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2\xd3\xd4\xd5\xd6\xd7\xd8\xd9\xda\xdb\xdc\xdd\xde\xdf\xe0\xe1\xe2\xe3\xe4\xe5\xe6\xe7\xe8\xe9\xea\xeb\xec\xed\xee\xef\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff"

// Whole, with the element written back: one write hook before the loop
// too. The table lookup cannot panic.
func inPlace(b []byte, w []uint16) {
	upper := true
	for i, c := range b {
		if upper {
			c -= 'a' - 'A'
		}
		upper = c == '-'
		b[i] = lower[c]
	}
	for i, c := range w {
		w[i] = c + 1
		w[i] = c + 2
	}
}

// Per element: the write may be skipped, or go elsewhere, or the table
// lookup may panic.
func inPlacePerElement(b []byte, w []uint16, j int) {
	for i, c := range b {
		if c == ' ' {
			continue
		}
		b[i] = c + 1
	}
	for i, c := range b {
		if c == ' ' {
			b[i] = '_'
		}
	}
	for i, c := range b {
		b[j] = c
		_ = i
	}
	for i, c := range b {
		i = 0
		b[i] = c
	}
	for i, c := range w {
		w[i] = uint16(lower[c])
	}
	for i, c := range bs {
		bs[i] = c
	}
}
