package expr

type T struct{ x int }

var (
	g  int
	gp *T
	s  []int
)

func use(...int) int { return 0 }

func expr(p *T) int {
	if p != nil && p.x > 0 {
		return p.x
	}
	for i := 0; i < g; i++ {
		use(s[i], g, len(s))
	}
	switch g {
	case p.x:
		return 1
	}
	t := T{x: g}
	arr := [3]int{g, p.x}
	_ = arr
	_ = s[1:g]
	_ = []*T{{x: g}}
	f := func() int { return t.x } // t is captured
	return use(f(), gp.x) + *&t.x
}
