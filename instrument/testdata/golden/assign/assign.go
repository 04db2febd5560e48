package assign

var x, y int
var a []int

func f() int { return 1 }
func g() int { return 2 }

func assign() (err error) {
	x = 1
	x, y = y, x
	a[f()] = g()
	x += 2
	y++
	a[0]--
	v := x // v is local: no hook on v
	v++
	p := &v // v is now address-taken: shared
	*p = 3
	v, err = 4, nil
	w, err := 5, error(nil) // err is redeclared: a write
	_ = w
	var z = y
	_ = z
	return
}
