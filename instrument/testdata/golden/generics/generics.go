package generics

type List[E any] struct {
	items []E
	n     int
}

func (l *List[E]) Push(e E) {
	l.items = append(l.items, e)
	l.n++
}

func Map[E, F any](s []E, f func(E) F) []F {
	out := make([]F, len(s))
	for i, e := range s {
		out[i] = f(e)
	}
	return out
}

func Sum[N int | float64](xs *[]N) (total N) {
	for _, x := range *xs {
		total += x
	}
	return
}
