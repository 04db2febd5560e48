package fields

type Inner struct{ n int }

func (i Inner) Get() int   { return i.n }
func (i *Inner) Set(n int) { i.n = n }

type Outer struct {
	Inner
	arr [4]int
	p   *Inner
}

var o Outer

func fields(po *Outer) (res int) {
	o.n = 1        // promoted field of a global
	po.n = 2       // through a pointer
	o.arr[2] = 3   // array element of a global
	po.arr[1]++    // array element through a pointer
	res = po.p.n   // pointer chain
	_ = o.Get()    // value receiver copies o.Inner
	o.Set(4)       // pointer receiver: no access by itself
	_ = po.p.Get() // value method through a pointer reads *po.p
	po.p.Set(5)    // loads po.p
	defer func() {
		res++ // a captured named result
	}()
	var local Outer // never shared: no hooks
	local.n = 6
	return local.n
}

// Methods promoted through embedded pointers load them; a value method
// copies its receiver, also at the end of an embedded path.
type Base int

func (b *Base) Foo() int { return 42 }
func (b Base) Bar() int  { return int(*&b) }

type Derived struct {
	pad int
	*Base
}

type ByValue struct {
	pad int
	Base
}

type Deep struct{ Derived }

var (
	d  Derived
	bv ByValue
	dp Deep
)

func promoted(pd *Derived) {
	_ = d.Foo()  // reads d.Base
	_ = d.Bar()  // reads d.Base and *d.Base
	_ = bv.Bar() // copies bv.Base
	_ = bv.Foo() // &bv.Base: no access
	_ = pd.Bar() // reads pd.Base and *pd.Base
	f := d.Bar   // the method value copies *d.Base when evaluated
	_ = f
	_ = dp.Foo()           // reads dp.Derived.Base
	_ = Derived{}.Bar()    // unaddressable: only the pointee is shared
	_ = (&ByValue{}).Bar() // a fresh composite literal, reached through a pointer
}
