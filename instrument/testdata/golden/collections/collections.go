package collections

var (
	m  map[string]int
	s  []byte
	st string
	ps *[4]int
)

func collections() {
	m["a"] = 1
	v, ok := m["b"]
	_, _ = v, ok
	m["c"]++
	delete(m, "a")
	clear(m)
	s = append(s, 'x', 'y')
	s = append(s, st...)
	s = append(s, s...)
	n := copy(s, st)
	n += copy(s[1:], s)
	st = string(s)
	bs := []byte(st)
	_ = bs
	_ = st[n]
	for k, v := range m {
		_, _ = k, v
	}
	for i, b := range s {
		_, _ = i, b
	}
	for _, x := range ps {
		_ = x
	}
	for i := range ps { // constant length: ps is not evaluated
		_ = i
	}
}
